// libFuzzer target for the C++ loader: the bytes are a .pte file; the program's header is
// checked and its "forward" method loaded (values, memory plan, inputs and outputs,
// instructions resolved against every kernel of every library). Only the kernels the load
// folds over constants run (Note [Constant folding at load]); the runner fuzz
// (tests/fuzz/harness.py) covers execution. Built and run by tests/fuzz/libfuzzer.py.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/executor/method.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The runner hands the loader page-aligned, writable bytes (a private mapping); libFuzzer's
  // buffer is neither, so copy it into memory aligned as a mapping's start would be.
  const size_t padded = (size + 63) / 64 * 64 + 64;
  uint8_t* bytes = static_cast<uint8_t*>(aligned_alloc(64, padded));
  if (bytes == nullptr) return 0;
  memcpy(bytes, data, size);
  rt::Program program;
  if (rt::Program::load(rt::Span<const uint8_t>(bytes, size), &program).ok()) {
    static const rt::KernelRegistry registry(rt::selected_kernels());
    rt::Method method;
    (void)method.load(program, "forward", registry);
  }
  free(bytes);
  return 0;
}
