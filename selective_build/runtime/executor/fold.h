#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/executor/instructions.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/loader/program.h"

namespace rt {

// Note [Constant folding at load]
// A kernel call whose inputs are all constants computes the same tensor on
// every run. Exporters emit such calls for every nn.Linear (permute_copy of
// the weight before addmm/mm), which made the transpose most of an MLP's run
// time. fold_constants runs each such call once, when the method loads,
// into memory of its own (not the planned arena, whose bytes other values
// reuse), and turns the instruction into a no-op.
//
// A call is folded when all of these hold:
//  - the chain has no JumpFalse: nothing is folded in a program with control
//    flow, so every instruction runs exactly once, in order;
//  - the operator is a pure out variant: in the aten (or ExecuTorch's
//    quantized_decomposed) namespace, overload "out" or ending in "_out", so by
//    ExecuTorch's convention it writes its out argument and nothing else (prim
//    ops such as et_copy_index write a positional argument; custom ops promise
//    nothing);
//  - its return slot (the last argument) is one tensor, and the argument
//    before it is that tensor again, as the exporter writes a call (the
//    kernel writes the schema's out, not the return slot); several outs come
//    as a TensorList and are left alone;
//  - every other argument is a constant: a tensor held in the program file
//    or an earlier folded output, or a scalar, string or list of constants,
//    and no instruction writes it (a kernel's return slot, any argument of a
//    call that is not a pure out variant or whose outs are not the values its
//    return slot names, a move's destination, a method input);
//  - its out is written by this call alone and is not a method input;
//  - it is cheap: its out holds no more bytes than its tensor inputs, and all
//    folded outs together no more than twice the method's constant tensors
//    (a weight transposed and then reshaped is two copies). So folding at
//    most triples the memory of the weights, and in the usual case (each
//    Linear weight transposed once) doubles it; a call that expands a small
//    constant into a big tensor keeps running per inference.
// A kernel that fails while folding fails the load with its message.
//
// Compiled in only where RT_FOLD_CONSTANTS is defined (codegen/plan/objects.py):
// it costs the smallest runner a page.

// Whether `value` is one of `values`. The others a call reads were made at load from
// constants (Note [Fusion at load] in fuse.h: a weight with a batch norm folded in, its
// bias, the epilogue's scalars), each for its one call.
inline bool owns(Span<EValue> values, const EValue* value) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(value);
  const uintptr_t first = reinterpret_cast<uintptr_t>(values.data());
  return at >= first && at < first + values.size() * sizeof(EValue);
}

// Which values hold the same data on every run: a tensor held in the program file and
// written by nothing, a scalar or list of such, or the out of a folded call. Filled by
// fold_constants; in a program with control flow, nothing is constant.
struct ConstantValues {
  Span<EValue> values{};
  const Program* program = nullptr;
  const uint8_t* writes = nullptr;  // per value, how often it is written (saturating at 2)
  uint8_t* folded = nullptr;        // per value, 1 for the out of a folded call

  // A value that is not one of the method's (owns) was made at load from constants, so it
  // is constant too.
  // A list's items are checked one level deep: a list of lists (which no schema has) is not
  // a constant.
  bool constant(const EValue* value, bool item = false) const;
};

// Folds what it can, and leaves in `constants` what it learned (for Note [Prepared
// weights], runtime/executor/prepare.h).
Status fold_constants(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                      const Program& program, Arena& arena, KernelContext& context,
                      ConstantValues* constants);

// The bytes of memory the folded calls' outputs took.
size_t folded_bytes(Span<Instruction> instructions);

}  // namespace rt
