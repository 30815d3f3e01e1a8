// The minimal ExecuTorch app a library-only `runtime = "executorch"` target's size is
// measured with (Note [Library-only size], tasks/size.py): what every app on ExecuTorch's
// Module does, load a program and run `forward`. It is linked twice, stripped, with the same
// flags against ExecuTorch's runtime: once as it is, and once with SELECTIVE_WITH_LIBRARY and
// the target's library, whose registration it then names so the linker keeps it. The
// difference is what the selected kernels add to an ExecuTorch app. It is never run.

#include <executorch/extension/module/module.h>

#ifdef SELECTIVE_WITH_LIBRARY
#include "runtime/executorch/kernel_adapter.h"
#endif

int main(int argc, char** argv) {
  executorch::extension::Module module(argc > 1 ? argv[1] : argv[0]);
  const bool ran = module.forward().ok();
#ifdef SELECTIVE_WITH_LIBRARY
  return ran && rt_et::selected_kernels_registered ? 0 : 1;
#else
  return ran ? 0 : 1;
#endif
}
