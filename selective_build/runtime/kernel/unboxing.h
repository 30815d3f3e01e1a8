#pragma once

#include "runtime/core/evalue.h"
#include "runtime/core/message.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel.h"

namespace rt {

// Checks, once when a method is loaded, that a kernel call's values fit the
// operator's schema as Kernel::layout describes it (Note [Kernel call layout]
// in codegen/unboxing.py): their number, and each value's kind, list entries
// included. The generated unboxing then converts them without checking. On a
// misfit writes one line naming the operator, the argument and what it got
// into `message` and returns false.
bool check_kernel_call(const Kernel& kernel, Span<EValue* const> args, Message& message);

}  // namespace rt
