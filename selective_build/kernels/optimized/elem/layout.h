#pragma once

#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {

// Same sizes and dim order: elementwise in memory order whatever the layout.
inline bool same_layout(const rt::Tensor& x, const rt::Tensor& y) {
  if (x.dim() != y.dim()) return false;
  for (int d = 0; d < x.dim(); ++d) {
    if (x.size(d) != y.size(d) || x.dim_order()[d] != y.dim_order()[d]) return false;
  }
  return true;
}

// An elementwise out = f(self) (or f(self, scalar)) can run as one loop over
// memory: self and out Float, both contiguous or in the same dim order. Then
// out is resized to self's sizes and true returned; `*empty` says there is
// nothing to compute (a failed resize has reported its error). false: the
// portable template must take the call (and does every check).
inline bool plan_fast_unary(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out,
                            bool* empty) {
  if (self.dtype() != rt::ScalarType::Float || out.dtype() != rt::ScalarType::Float) return false;
  if (!(self.is_contiguous() && out.is_contiguous()) && !same_layout(self, out)) return false;
  const rt::Span<const int32_t> sizes = self.sizes();
  *empty = !rt::resize_out(in, out, sizes.data(), self.dim()) || out.numel() == 0;
  return true;
}

}  // namespace optimized
