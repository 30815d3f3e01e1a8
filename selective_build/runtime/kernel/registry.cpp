#include "runtime/kernel/registry.h"

#include <cstring>

namespace rt {
namespace {

// The default kernel (null key) orders before every keyed one.
int compare_keys(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return (a != nullptr) - (b != nullptr);
  return strcmp(a, b);
}

}  // namespace

Status KernelRegistry::validate() const {
  for (size_t i = 0; i < kernels_.size(); ++i) {
    const Kernel& kernel = kernels_[i];
    int order = kernel.name != nullptr ? 1 : 0;  // of this entry against the previous one
    if (i > 0 && order > 0) {
      order = strcmp(kernel.name, kernels_[i - 1].name);
      if (order == 0) order = compare_keys(kernel.key, kernels_[i - 1].key);
    }
    if (kernel.fn == nullptr || order <= 0) {
      return Status(Error::InvalidArgument,
                    "kernel table is unsorted, has a duplicate or lacks a function");
    }
  }
  return Status();
}

const Kernel* KernelRegistry::find(const char* name, const char* key) const {
  // A linear scan: it runs once per KernelCall at load, never while executing.
  const Kernel* fallback = nullptr;
  for (const Kernel& kernel : kernels_) {
    if (strcmp(kernel.name, name) != 0) continue;
    if (kernel.key == nullptr) {
      fallback = &kernel;
    } else if (key != nullptr && strcmp(kernel.key, key) == 0) {
      return &kernel;
    }
  }
  return fallback;
}

}  // namespace rt
