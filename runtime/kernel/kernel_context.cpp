#include "runtime/kernel/kernel_context.h"

#include <cstdio>

namespace rt {

void KernelContext::report(Error code, const char* format, const char* op, const char* a,
                           const char* b) {
  if (failed()) return;
  code_ = code;
  snprintf(message_.text, sizeof message_.text, format, op, a, b);
}

bool KernelContext::check_dtype(const char* op, ScalarType dtype, uint32_t supported,
                                uint32_t enabled) {
  const uint32_t bit = 1u << (static_cast<uint32_t>(dtype) & 31);
  if ((enabled & bit) != 0) return true;
  const bool selectable = (supported & bit) != 0;
  report(selectable ? Error::NotSupported : Error::InvalidArgument, "%s: dtype %s %s", op,
         scalar_type_name(dtype),
         selectable ? "was not selected in this build" : "is not supported");
  return false;
}

void* KernelContext::prepare(size_t bytes, size_t arg) {
  if (prepare_arena_ == nullptr || bytes > static_cast<size_t>(-1) - 64) return nullptr;
  void* memory = prepare_arena_->allocate(bytes + 64);
  if (memory == nullptr) return nullptr;
  prepared_bytes_ = bytes + 64;
  prepared_arg_ = arg;
  // The arena aligns for scalars; panels want whole cache lines.
  const uintptr_t address = reinterpret_cast<uintptr_t>(memory);
  prepared_ = reinterpret_cast<void*>((address + 63) & ~uintptr_t{63});
  return const_cast<void*>(prepared_);
}

}  // namespace rt
