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
  // The size, then padding up to a cache line: panels want whole lines, the arena aligns
  // for scalars only.
  constexpr size_t kSlack = sizeof(size_t) + 63;
  if (preparing_ == nullptr || bytes > static_cast<size_t>(-1) - kSlack) return nullptr;
  char* memory = static_cast<char*>(preparing_->arena->allocate(bytes + kSlack));
  if (memory == nullptr) return nullptr;
  preparing_->arg = arg;
  const uintptr_t start = reinterpret_cast<uintptr_t>(memory + sizeof(size_t));
  char* aligned = memory + ((start + 63) & ~uintptr_t{63}) - reinterpret_cast<uintptr_t>(memory);
  const size_t taken = bytes + kSlack;
  memcpy(aligned - sizeof taken, &taken, sizeof taken);
  prepared_ = aligned;
  return aligned;
}

}  // namespace rt
