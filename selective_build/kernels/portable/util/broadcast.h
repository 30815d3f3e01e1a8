#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"

namespace portable {

// The shape shapes a and b broadcast to (dims aligned to the right; a size-1
// dim stretches). False if some dim pair differs and neither is 1. `sizes`
// must not overlap a_sizes or b_sizes.
inline bool broadcast_sizes(const int32_t* a_sizes, int a_dim, const int32_t* b_sizes, int b_dim,
                            int32_t* sizes, int* dim) {
  const int n = a_dim > b_dim ? a_dim : b_dim;
  *dim = n;
  for (int d = 0; d < n; ++d) {
    const int da = d - (n - a_dim);
    const int db = d - (n - b_dim);
    const int32_t sa = da >= 0 ? a_sizes[da] : 1;
    const int32_t sb = db >= 0 ? b_sizes[db] : 1;
    if (sa != sb && sa != 1 && sb != 1) return false;
    sizes[d] = sa == 1 ? sb : sa;
  }
  return true;
}

// The shape tensors a and b broadcast to (as broadcast_sizes).
inline bool broadcast_shape(const rt::Tensor& a, const rt::Tensor& b, int32_t* sizes, int* dim) {
  *dim = a.dim() > b.dim() ? a.dim() : b.dim();
  for (int d = 0; d < *dim; ++d) {
    const int da = d - (*dim - a.dim());
    const int db = d - (*dim - b.dim());
    const int32_t sa = da >= 0 ? a.size(da) : 1;
    const int32_t sb = db >= 0 ? b.size(db) : 1;
    if (sa != sb && sa != 1 && sb != 1) return false;
    sizes[d] = sa == 1 ? sb : sa;
  }
  return true;
}

}  // namespace portable
