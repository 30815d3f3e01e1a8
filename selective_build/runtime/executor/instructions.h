#pragma once

#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/message.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/flatbuffer.h"

namespace rt {

// An instruction of chain 0, decoded and checked at load so execution reads
// no flatbuffer and checks no index.
struct Instruction {
  // Kernel is 0: instructions come from the arena zero-filled, as Kernel. Folded: a
  // kernel call run once at load (Note [Constant folding at load] in fold.h); like Free,
  // it does nothing at run time. Free is also a call made useless at load: fused into
  // another (Note [Fusion at load] in fuse.h), or one whose result only a call that
  // prepared it needed (Note [Prepared weights] in runtime/kernel/kernel_context.h).
  enum class Kind : uint8_t { Kernel = 0, Move, JumpFalse, Free, Folded };

  Kind kind;
  bool pure_out;             // Kernel: an aten out variant, writing only its last argument
  bool may_prepare;          // Kernel: an operator whose kernels prepare (prepare.h)
  uint32_t first;            // Move: source value; JumpFalse: condition value
  uint32_t second;           // Move: destination value; JumpFalse: target instruction
  OpFunction fn;             // Kernel
  Span<EValue* const> args;  // Kernel: the values of KernelCall.args
  const void* prepared;      // Kernel: what it prepared at load (Note [Prepared weights])
#ifdef RT_PROFILE_CALLS
  const char* op;  // Kernel: the operator its kernel was registered for (Note [Call profile])
#endif
};

// Decodes chain 0 of `plan`, resolving every KernelCall against `registry`
// (exact kernel key, else the operator's default kernel). Failures go to the
// reader; those that name an operator or backend are formatted in `message`.
Span<Instruction> decode_instructions(fb::Reader& reader, fb::Table plan, Span<EValue> values,
                                      const KernelRegistry& registry, Arena& arena,
                                      Message& message);

}  // namespace rt
