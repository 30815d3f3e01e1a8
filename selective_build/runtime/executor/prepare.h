#pragma once

#include <cstddef>
#include <cstring>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/executor/fold.h"
#include "runtime/executor/instructions.h"
#include "runtime/kernel/kernel_context.h"

namespace rt {

// The operators whose kernels may prepare a constant argument (Note [Prepared weights] in
// runtime/kernel/kernel_context.h): the optimized library's matrix products and
// convolution. A call of any other operator is never run in preparing mode, since its
// kernel would compute instead.
inline bool prepares(const char* op) {
  static constexpr const char* kOperators[] = {"aten::addmm.out", "aten::bmm.out",
                                               "aten::convolution.out", "aten::linear.out",
                                               "aten::mm.out"};
  for (const char* name : kOperators) {
    if (strcmp(op, name) == 0) return true;
  }
  return false;
}

// Note [Preparing through constant producers]
// A weight often reaches the call that could prepare it through calls that make it from
// constants on every run: an int8 weight dequantized (PT2E programs), then transposed
// (a Linear's permute_copy). Folding keeps none of them when the result is bigger than
// what it is made from (Note [Constant folding at load] in fold.h), and any it keeps is a
// second copy once the call packed its own. So, for each argument of a preparing call that
// only that call reads at run time and that is not constant, prepare_calls follows its
// producers back (pure out variants written once, read by nothing else, at most four
// deep) to constants, runs that chain once at load into memory of its own and offers the
// argument as constant. If the call prepares that argument, the chain's calls become
// Kind::Free (skipped at run time) and the memory their outs (or the folded ones the call
// alone read) took is released; if not, the chain keeps running on every run, as before.

// Runs each call that may prepare and has a constant tensor argument (or one made only
// from constants, as above) once in preparing mode (its memory from `arena`), recording
// what it prepared in the instruction. A kernel that fails while preparing fails the load
// with its message. Compiled in only where RT_PREPARE is defined
// (codegen/plan/objects.py).
Status prepare_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList outputs,
                     const ConstantValues& constants, Arena& arena, KernelContext& context);

// The bytes of memory the calls took for what they prepared.
size_t prepared_bytes(Span<Instruction> instructions);

}  // namespace rt
