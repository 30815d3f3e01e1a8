#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/optimized/elem/loops.h"
#include "kernels/optimized/elem/pixels.h"
#include "kernels/optimized/elem/vmath.h"
#include "kernels/portable/util/reduce_accumulate.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {

// The sum of x[0, n) in kLanes running sums (another order than portable's
// one running sum: within the Float tolerance, and usually closer).
inline float row_sum(const float* x, int64_t n) {
  Vec sum = splat(0.0f);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) sum += load(x + i);
  if (i < n) sum += load_partial(x + i, n - i, 0.0f);
  float lanes[kLanes];
  store(lanes, sum);
  float total = 0.0f;
  for (int64_t k = 0; k < kLanes; ++k) total += lanes[k];
  return total;
}

// A planned sum (or, with `mean`, mean) of a Float self over a set of
// trailing dims (`mask`: the last dim, or all of them, as layer and RMS norms
// and pooled heads reduce) with self and out contiguous: every output is
// the sum of one contiguous run of self. False: not that case, nothing done.
inline bool trailing_reduce(const rt::Tensor& self, uint32_t mask, const portable::ReducePlan& plan,
                            bool mean, rt::Tensor& out) {
  if (self.dtype() != rt::ScalarType::Float || out.dtype() != rt::ScalarType::Float) return false;
  if (!self.is_contiguous() || !out.is_contiguous()) return false;
  const uint32_t all = portable::all_dims_mask(self);
  const uint32_t lowest = mask & (~mask + 1u);
  if ((mask & ~all) != 0 || ((mask + lowest) & all) != 0)
    return false;  // not one run ending at the last dim
  const int64_t inner = plan.inner_numel;
  const float* x = self.data_as<const float>();
  float* y = out.data_as<float>();
  // Each output is one row's sum: rows split over the threads (Note [Split elementwise]).
  split_rows(plan.outer_numel, inner, [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      const float total = row_sum(x + r * inner, inner);
      y[r] = mean ? total / static_cast<float>(inner)
                  : total;  // an empty mean is 0 / 0: NaN, as torch
    }
  });
  return true;
}

// A planned sum (or, with `mean`, mean) of a channels-last Float self over H and W (an SE
// block's squeeze, a pooled head) into an out whose (n, c) is at n C + c ([N, C], or [N, C,
// 1, 1] in either dim order): each image's Note [Sums over pixels]. False: not that case,
// nothing done.
inline bool pixels_reduce(const rt::Tensor& self, uint32_t mask, bool mean, rt::Tensor& out) {
  if (self.dtype() != rt::ScalarType::Float || out.dtype() != rt::ScalarType::Float) return false;
  if (!self.is_channels_last() || mask != ((1u << 2) | (1u << 3))) return false;
  const int64_t images = self.size(0), channels = self.size(1);
  if (out.numel() != images * channels || (channels > 1 && out.stride(1) != 1) ||
      (images > 1 && out.stride(0) != channels))
    return false;
  const int64_t pixels = int64_t{self.size(2)} * self.size(3);
  const float count = mean ? static_cast<float>(pixels) : 1.0f;  // an empty mean: 0 / 0
  const float* x = self.data_as<const float>();
  float* y = out.data_as<float>();
  // The threads' items: blocks of an image's channels (an SE block's squeeze is one image).
  const int64_t blocks = (channels + kWindowBlock - 1) / kWindowBlock;
  split_rows(images * blocks, pixels * kWindowBlock, [&](int64_t first, int64_t last) {
    for (int64_t item = first; item < last; ++item) {
      const int64_t n = item / blocks, c = item % blocks * kWindowBlock;
      window_mean(PixelWindow{x + n * self.stride(0), 1, 0, pixels, channels}, channels, count,
                  y + n * channels, c, std::min(c + kWindowBlock, channels));
    }
  });
  return true;
}

// The kernel of mean.out or sum.IntList_out (`mean` says which):
// `name`(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
// Tensor(a!) out). portable's checks and plan, then trailing_reduce, pixels_reduce, or
// portable's walk folding with `Op` (reduce_accumulate.h) for other dim sets.
template <typename Dtypes, typename Op>
void reduce_kernel(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                   rt::Optional<rt::IntList> dim, bool keepdim,
                   rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out, bool mean) {
  const rt::OpContext in(context, op);
  uint32_t mask = 0;
  if (!portable::check_sum_args<Dtypes>(in, self, dim, dtype_arg, out, &mask) ||
      !Dtypes::check(context, op, out.dtype())) {
    return;
  }
  portable::ReducePlan plan;
  if (!portable::plan_reduce(in, self, mask, keepdim, out, &plan)) return;
  if (trailing_reduce(self, mask, plan, mean, out) || pixels_reduce(self, mask, mean, out)) return;
  Dtypes::run(context, op, out.dtype(), [&](auto tag) {
    portable::accumulate_reduce<Dtypes, Op, typename decltype(tag)::type>(context, op, self, plan,
                                                                          out);
  });
}

}  // namespace optimized
