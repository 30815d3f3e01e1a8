#pragma once

#include "runtime/core/error.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel.h"

namespace rt {

// A view over the const kernel table of this build: the table is the registry,
// sized exactly by code generation, never copied into mutable slots.
class KernelRegistry {
 public:
  explicit KernelRegistry(Span<const Kernel> kernels) : kernels_(kernels) {}

  // Checks what the generator promises: sorted by (name, key), a default
  // kernel (null key) before the keyed ones, no duplicate (which would make
  // lookups ambiguous; sorting lets one pass find them). The generated table
  // is also checked when it is compiled (kernels_sorted below), so the runner
  // need not call this; a table built by hand should be.
  Status validate() const;

  // The kernel whose key equals `key` exactly, else the default kernel of
  // `name`, else nullptr. `key` may be nullptr (only the default matches).
  const Kernel* find(const char* name, const char* key) const;

  Span<const Kernel> kernels() const { return kernels_; }

 private:
  Span<const Kernel> kernels_;
};

namespace detail {
constexpr int compare_strings(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return static_cast<unsigned char>(*a) - static_cast<unsigned char>(*b);
}
}  // namespace detail

// KernelRegistry::validate() at compile time, for the generated table:
// static_assert(kernels_sorted(table, size)).
constexpr bool kernels_sorted(const Kernel* kernels, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (kernels[i].name == nullptr || kernels[i].fn == nullptr) return false;
    if (i == 0) continue;
    int order = detail::compare_strings(kernels[i].name, kernels[i - 1].name);
    if (order == 0) {
      const char* key = kernels[i].key;
      const char* previous = kernels[i - 1].key;
      order = key == nullptr || previous == nullptr ? (key != nullptr) - (previous != nullptr)
                                                    : detail::compare_strings(key, previous);
    }
    if (order <= 0) return false;
  }
  return true;
}

}  // namespace rt
