#pragma once

#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// pixel_shuffle and pixel_unshuffle move elements between a (*, C*r*r, H, W)
// tensor `packed` and a (*, C, H*r, W*r) tensor `spread`: the element
// packed[..., c*r*r + i*r + j, h, w] is spread[..., c, h*r + i, w*r + j].
// Both are walked as the 6-dim view (*, C, H, r, W, r) of spread; `to_spread`
// says which one is written. Their shapes are checked by the callers.
inline void pixel_move(const rt::Tensor& packed, const rt::Tensor& spread, int64_t r,
                       bool to_spread) {
  const int batch = spread.dim() - 3;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t packed_strides[rt::Tensor::kMaxDims], spread_strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < batch; ++d) {
    sizes[d] = spread.size(d);
    packed_strides[d] = packed.stride(d);
    spread_strides[d] = spread.stride(d);
  }
  const int64_t pc = packed.stride(batch), ph = packed.stride(batch + 1),
                pw = packed.stride(batch + 2);
  const int64_t sc = spread.stride(batch), sh = spread.stride(batch + 1),
                sw = spread.stride(batch + 2);
  const int32_t rr = static_cast<int32_t>(r);
  const int32_t view[5] = {spread.size(batch), packed.size(batch + 1), rr, packed.size(batch + 2),
                           rr};
  const int64_t from_packed[5] = {pc * r * r, ph, pc * r, pw, pc};
  const int64_t from_spread[5] = {sc, sh * r, sh, sw * r, sw};
  for (int k = 0; k < 5; ++k) {
    sizes[batch + k] = view[k];
    packed_strides[batch + k] = from_packed[k];
    spread_strides[batch + k] = from_spread[k];
  }
  if (to_spread) {
    copy_strided(sizes, batch + 5, spread.element_size(), spread.data(), spread_strides,
                 packed.data(), packed_strides);
  } else {
    copy_strided(sizes, batch + 5, packed.element_size(), packed.data(), packed_strides,
                 spread.data(), spread_strides);
  }
}

// Checks self has at least 3 dims and few enough for the 6-dim view, and a
// positive factor; false after failing the context.
inline bool pixel_check(const rt::OpContext& in, const rt::Tensor& self, int64_t factor) {
  if (self.dim() < 3 || self.dim() + 2 > rt::Tensor::kMaxDims) {
    in.fail("self must have at least 3 dims");
    return false;
  }
  if (factor <= 0 || factor > INT32_MAX / 4) {
    in.fail("the factor must be positive");
    return false;
  }
  return true;
}

}  // namespace portable
