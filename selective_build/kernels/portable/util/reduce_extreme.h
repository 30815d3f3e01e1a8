#pragma once

#include <cstdint>

#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// The max (kMax) or min of self over a planned reduction with a nonempty
// inner part, and the index of its first occurrence in the reduced elements
// (row-major). A NaN beats every number (its first occurrence is kept), as
// torch. Values go to plan's out operand when `values` is set; indices to
// `indices` at row-major output positions, or to plan's out operand when
// there are no values.
template <bool kMax, typename T>
void find_extremes(ReducePlan& plan, const rt::Tensor& self, rt::Tensor* values,
                   rt::Tensor* indices) {
  using M = opmath_t<T>;
  const T* x = self.data_as<const T>();
  T* pv = values != nullptr ? values->data_as<T>() : nullptr;
  int64_t* pi = indices != nullptr ? indices->data_as<int64_t>() : nullptr;
  const ElementOffsets at_index(indices);
  const int64_t n = plan.inner_numel;
  int64_t position = 0;
  for_each_reduced(plan, [&](int64_t so, int64_t oo) {
    M best = static_cast<M>(x[so + plan.inner.offset[0]]);
    int64_t best_index = 0;
    plan.inner.next();
    for (int64_t i = 1; i < n; ++i) {
      const M v = static_cast<M>(x[so + plan.inner.offset[0]]);
      plan.inner.next();
      if (best != best) continue;
      if ((kMax ? v > best : v < best) || v != v) {
        best = v;
        best_index = i;
      }
    }
    if (pv != nullptr) {
      pv[oo] = rt::value_cast<T>(best);
      if (pi != nullptr) pi[at_index(position++)] = best_index;
    } else {
      pi[oo] = best_index;
    }
  });
}

// The kernels of the max/min families, by kMax; `Dtypes` is the op's own DtypeDispatch
// (its selected dtypes come from the op's own header). Each plans the reduction and
// refuses an empty reduced part, which has no extreme.
template <bool kMax, typename Dtypes>
void run_extremes(const rt::OpContext& in, rt::KernelContext& context, const char* op,
                  const rt::Tensor& self, uint32_t mask, bool keepdim, rt::Tensor* values,
                  rt::Tensor* indices) {
  ReducePlan plan;
  if (indices != nullptr && !plan_reduce(in, self, mask, keepdim, *indices, &plan)) return;
  if (values != nullptr && !plan_reduce(in, self, mask, keepdim, *values, &plan)) return;
  if (plan.inner_numel == 0 && plan.outer_numel != 0)
    return in.fail("cannot reduce over a dim of size 0");
  Dtypes::run(context, op, self.dtype(), [&](auto tag) {
    find_extremes<kMax, typename decltype(tag)::type>(plan, self, values, indices);
  });
}

// amax.out / amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out)
template <bool kMax, typename Dtypes>
void extreme_values_out(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                        rt::IntList dim, bool keepdim, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, true, &mask)) return;
  if (!Dtypes::check(context, op, self.dtype())) return;
  if (out.dtype() != self.dtype()) return in.fail("out must have self's dtype");
  run_extremes<kMax, Dtypes>(in, context, op, self, mask, keepdim, &out, nullptr);
}

// argmax.out / argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out);
// with dim None the index is into the flattened self, over every dim.
template <bool kMax, typename Dtypes>
void extreme_indices_out(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                         rt::Optional<int64_t> dim, bool keepdim, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, &mask)) return;
  if (!Dtypes::check(context, op, self.dtype())) return;
  if (out.dtype() != rt::ScalarType::Long) return in.fail("out must be int64");
  run_extremes<kMax, Dtypes>(in, context, op, self, mask, keepdim, nullptr, &out);
}

// max.dim_max / min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) <values>,
// Tensor(b!) <indices>).
template <bool kMax, typename Dtypes>
void extremes_along_dim(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                        int64_t dim, bool keepdim, rt::Tensor& values, rt::Tensor& indices) {
  const rt::OpContext in(context, op);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, rt::Optional<int64_t>(dim), self, &mask)) return;
  if (!Dtypes::check(context, op, self.dtype())) return;
  if (values.dtype() != self.dtype()) return in.fail("values must have self's dtype");
  if (indices.dtype() != rt::ScalarType::Long) return in.fail("indices must be int64");
  run_extremes<kMax, Dtypes>(in, context, op, self, mask, keepdim, &values, &indices);
}

}  // namespace portable
