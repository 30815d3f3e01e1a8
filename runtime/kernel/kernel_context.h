#pragma once

#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/message.h"
#include "runtime/core/scalar_type.h"

namespace rt {

// What a kernel reports back to the executor. Only the first failure of a
// call is kept: later ones are usually consequences of it.
class KernelContext {
 public:
  // "<op>: <what>", e.g. "aten::add.out: out has the wrong shape".
  void fail(Error code, const char* op, const char* what) { report(code, "%s: %s", op, what, ""); }

  // True if `dtype` is in `enabled`; otherwise fails naming the dtype and
  // whether the kernel lacks it (not in `supported`) or this build left it
  // out (Note [Dtype selection] in dtype_selection.h). Sets are bit masks.
  bool check_dtype(const char* op, ScalarType dtype, uint32_t supported, uint32_t enabled);

  bool failed() const { return code_ != Error::Ok; }
  Status status() const { return Status(code_, message_.text); }
  void clear() { code_ = Error::Ok; }

 private:
  // Records the failure unless one is recorded; `format` takes three strings.
  void report(Error code, const char* format, const char* op, const char* a, const char* b);

  Error code_ = Error::Ok;
  Message message_;
};

}  // namespace rt
