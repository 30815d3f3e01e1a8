#pragma once

#include <algorithm>
#include <cstdint>

namespace opt {

// The outputs [lo, hi) of a row of `count` whose input position o * stride + offset lies in
// [0, size), lo <= hi <= count: computed once per window tap (im2col) or per load of a chunk
// (the direct depthwise's lane masks), so the loops over outputs test no bounds.
inline void valid_outputs(int64_t offset, int64_t stride, int64_t size, int64_t count, int64_t* lo,
                          int64_t* hi) {
  *lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const int64_t last = size - 1 - offset;  // o * stride <= last
  *hi = last < 0 ? 0 : std::min(count, last / stride + 1);
  if (*lo > *hi) *lo = *hi;
}

}  // namespace opt
