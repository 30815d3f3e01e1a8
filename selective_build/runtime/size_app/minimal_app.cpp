// The minimal app a library-only target's size is measured with (Note [Library-only size],
// tasks/size.py). It is linked twice, stripped, with the same flags: once as it is (an app
// without the runtime) and once with SELECTIVE_WITH_LIBRARY and the target's library. The
// difference is what the library adds to an app.
//
// With the library it calls what every app calls: load a program, register the selected
// kernels, load a method and execute it (set_input too, as apps pass inputs). The bytes
// come from argv, so the compiler cannot prove any call away; it is never run.
//
// Not part of the runtime: codegen/plan/objects.py leaves this folder out of every target.

#ifdef SELECTIVE_WITH_LIBRARY
#include <cstdint>

#include "runtime/core/span.h"
#include "runtime/executor/method.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

int main(int argc, char** argv) {
  const rt::Span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(argv[0]),
                                      static_cast<size_t>(argc));
  rt::Program program;
  if (!rt::Program::load(bytes, &program).ok()) return 1;
  const rt::KernelRegistry registry(rt::selected_kernels());
  rt::Method method;
  if (!method.load(program, "forward", registry).ok()) return 1;
  if (method.num_inputs() > 0 && !method.set_input(0, method.input(0).to_tensor()).ok()) return 1;
  return method.execute().ok() ? 0 : 1;
}
#else
int main(int argc, char**) { return argc > 1 ? 1 : 0; }
#endif
