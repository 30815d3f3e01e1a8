#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"

namespace portable {

// The shape a and b broadcast to (dims aligned to the right; a size-1 dim
// stretches). False if some dim pair differs and neither is 1.
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
