#pragma once

#include <cstdint>

#include "kernels/optimized/elem/loops.h"
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

// The kernel of mean.out or sum.IntList_out (`mean` says which):
// `name`(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
// Tensor(a!) out). portable's checks and plan, then trailing_reduce, or
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
  if (trailing_reduce(self, mask, plan, mean, out)) return;
  Dtypes::run(context, op, out.dtype(), [&](auto tag) {
    portable::accumulate_reduce<Dtypes, Op, typename decltype(tag)::type>(context, op, self, plan,
                                                                          out);
  });
}

}  // namespace optimized
