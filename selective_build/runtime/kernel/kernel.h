#pragma once

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"

namespace rt {

class KernelContext;

// The generated unboxing of a kernel: it receives the values named by its
// KernelCall, in the emitter's order (Note [Kernel call layout] in
// codegen/unboxing.py), checked at load against Kernel::layout, and calls the
// kernel's typed signature (declared in the generated kernel_functions.h).
using OpFunction = void (*)(KernelContext& context, Span<EValue* const> args);

// One entry of the registry table. Plain pointers only, so a const table of
// these is constant-initialized into .rodata with no constructor at startup.
struct Kernel {
  const char* name;  // "aten::add.out"
  const char* key;   // "v1/6;0,1|..." for a specialized kernel, nullptr for the default
  OpFunction fn;
  // The kinds and names of the call's values, for the load-time check
  // (runtime/kernel/unboxing.h): their number as one byte, then a kind code
  // and a name per value, each NUL-terminated: "\005Aself\0Aother\0Dalpha\0Aout\0A".
  const char* layout;
};

// The kernels of this build, sorted by (name, key) with a name's default
// kernel first. Defined by the generated selected_kernels.cpp.
Span<const Kernel> selected_kernels();

}  // namespace rt
