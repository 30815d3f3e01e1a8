#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/core/arena.h"
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

  // Note [Prepared weights]
  // A kernel may turn a constant argument (a layer's weight) into the layout it reads
  // fastest once, when the method loads, instead of on every call: the optimized GEMM packs
  // a weight into its microkernel's panels (kernels/optimized/gemm_packed.h). Where a build
  // compiles this in (RT_PREPARE, codegen/plan/objects.py: targets whose optimized library
  // has a matrix product or a convolution), Method::load calls each call of those operators
  // that has a constant tensor argument once more, in "preparing" mode
  // (runtime/executor/prepare.h): the kernel reads which arguments are constant, may take
  // memory that lives as long as the method (prepare), fills it from the constant
  // arguments alone, and returns without computing. Every later run of that call finds the
  // memory in prepared(); null when nothing was prepared. Constant arguments never change,
  // so what was prepared stays true; the kernel still checks that its shapes match.
  bool preparing() const { return preparing_ != nullptr; }
  // Whether argument `index` (in the call's layout) is constant; only while preparing.
  bool constant_arg(size_t index) const {
    return index < 64 && (preparing_->constant_args >> index & 1) != 0;
  }
  // While preparing: `bytes` of zero-filled, 64-byte-aligned memory for the method's
  // lifetime, which later runs of this call get from prepared(), to be filled from
  // argument `arg` alone (the call never reads that argument's data again); nullptr when
  // out of memory.
  void* prepare(size_t bytes, size_t arg);
  const void* prepared() const { return prepared_; }

  // The executor's side of Note [Prepared weights]: what one call in preparing mode may
  // use, and what it took.
  struct Preparing {
    Arena* arena;
    uint64_t constant_args;
    size_t arg;  // the argument prepared
  };
  // The bytes prepare() took for `prepared` (kept just before it).
  static size_t prepared_size(const void* prepared) {
    size_t bytes;
    memcpy(&bytes, static_cast<const char*>(prepared) - sizeof bytes, sizeof bytes);
    return bytes;
  }
  // `preparing` until end_preparing(); nullptr for a context that runs calls.
  void begin_preparing(Preparing* preparing) {
    preparing_ = preparing;
    prepared_ = nullptr;
  }
  void end_preparing() { preparing_ = nullptr; }
  void set_prepared(const void* prepared) { prepared_ = prepared; }

 private:
  // Records the failure unless one is recorded; `format` takes three strings.
  void report(Error code, const char* format, const char* op, const char* a, const char* b);

  Error code_ = Error::Ok;
  Message message_;
  // No initializers: every runner constructs a context, and the smallest has no code bytes
  // to spare for two more stores. Method::load sets both where preparation is compiled in
  // (RT_PREPARE), the only builds whose kernels read them; anything else that makes a
  // context for such kernels value-initializes it (`rt::KernelContext context{};`).
  Preparing* preparing_;
  const void* prepared_;
};

}  // namespace rt
