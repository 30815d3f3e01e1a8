#pragma once

#include <cstddef>
#include <cstring>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
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

// Runs each call that may prepare and has a constant tensor argument once in preparing mode
// (its memory from `arena`), recording what it prepared in the instruction and adding the
// bytes it took to `bytes`. A kernel that fails while preparing fails the load with its
// message. Compiled in only where RT_PREPARE is defined (codegen/plan/objects.py).
Status prepare_calls(Span<Instruction> instructions, const ConstantValues& constants, Arena& arena,
                     KernelContext& context, size_t* bytes);

}  // namespace rt
