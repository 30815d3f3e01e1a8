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
  // lookups ambiguous; sorting lets one pass find them).
  Status validate() const;

  // The kernel whose key equals `key` exactly, else the default kernel of
  // `name`, else nullptr. `key` may be nullptr (only the default matches).
  const Kernel* find(const char* name, const char* key) const;

  Span<const Kernel> kernels() const { return kernels_; }

 private:
  Span<const Kernel> kernels_;
};

}  // namespace rt
