#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/dim_rows.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// softmax and log_softmax along one dim. Both look at a row's max (subtracting it keeps
// exp() finite; a NaN input gives NaNs) and at the sum of exp(x - max); `Normalise`
// then makes each output element: `row(max, sum)` once per row, `element(x, max, row)`.
template <typename Normalise, typename T>
void normalise_rows(DimRows& rows, const T* self, T* out) {
  using M = opmath_t<T>;
  StridedWalk<2>& walk = rows.walk;
  const int64_t n = rows.n, ss = rows.self_stride, so = rows.out_stride;
  do {
    for (int64_t r = 0; r < walk.row_size(); ++r) {
      const T* x = self + walk.offset(0) + r * walk.row_stride(0);
      T* y = out + walk.offset(1) + r * walk.row_stride(1);
      M max = static_cast<M>(x[0]);
      for (int64_t i = 1; i < n; ++i)
        max = static_cast<M>(x[i * ss]) > max ? static_cast<M>(x[i * ss]) : max;
      M sum = M(0);
      for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<M>(x[i * ss]) - max);
      const M row = Normalise::row(max, sum);
      for (int64_t i = 0; i < n; ++i)
        y[i * so] = rt::value_cast<T>(Normalise::element(static_cast<M>(x[i * ss]), max, row));
    }
  } while (walk.next_row());
}

// The row and element formulas of the two operators, for normalise_rows (and the
// optimized kernels' strided path, so both compute the same bits).

namespace {  // the functors' instantiations stay in their kernel (Note [Shared kernel checks])

// softmax: exp(x - max) / sum(exp(x - max)).
struct Softmax {
  template <typename M>
  static M row(M, M sum) {
    return sum;
  }
  template <typename M>
  static M element(M x, M max, M sum) {
    return std::exp(x - max) / sum;
  }
};

// log_softmax: x - max - log(sum(exp(x - max))), stable for large inputs; an infinite max
// gives NaNs, as torch.
struct LogSoftmax {
  template <typename M>
  static M row(M max, M sum) {
    return max + std::log(sum);
  }
  template <typename M>
  static M element(M x, M, M shift) {
    return x - shift;
  }
};

}  // namespace

// The kernel of `op`: `op`(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out).
// `Dtypes` is the op's own DtypeDispatch (its selected dtypes come from its own header).
template <typename Dtypes, typename Normalise>
void normalise_along_dim(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                         int64_t dim, bool half_to_float, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  if (!Dtypes::check(context, op, self.dtype())) return;
  if (half_to_float) return in.fail("half_to_float is not supported");
  if (out.dtype() != self.dtype()) return in.fail("out must have self's dtype");
  DimRows rows;
  if (!plan_dim_rows(in, self, out, dim, &rows)) return;
  Dtypes::run(context, op, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    normalise_rows<Normalise, T>(rows, self.data_as<const T>(), out.data_as<T>());
  });
}

}  // namespace portable
