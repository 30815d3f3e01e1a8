#pragma once

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"

namespace rt {

class KernelContext;

// A kernel receives the values named by its KernelCall, in the file's order:
// inputs, out arguments, then the return value (see Note [Kernel key]).
using OpFunction = void (*)(KernelContext& context, Span<EValue* const> args);

// One entry of the registry table. Plain pointers only, so a const table of
// these is constant-initialized into .rodata with no constructor at startup.
struct Kernel {
  const char* name;  // "aten::add.out"
  const char* key;   // "v1/6;0,1|..." for a specialized kernel, nullptr for the default
  OpFunction fn;
};

// The kernels of this build, sorted by (name, key) with a name's default
// kernel first. Defined by the generated selected_kernels.cpp.
Span<const Kernel> selected_kernels();

}  // namespace rt
