#pragma once

#include <cmath>
#include <cstdint>

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
void normalise_rows(StridedWalk<2>& walk, const T* self, T* out, int64_t n, int64_t ss, int64_t so) {
  using M = opmath_t<T>;
  do {
    for (int64_t r = 0; r < walk.row_size(); ++r) {
      const T* x = self + walk.offset(0) + r * walk.row_stride(0);
      T* y = out + walk.offset(1) + r * walk.row_stride(1);
      M max = static_cast<M>(x[0]);
      for (int64_t i = 1; i < n; ++i) max = static_cast<M>(x[i * ss]) > max ? static_cast<M>(x[i * ss]) : max;
      M sum = M(0);
      for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<M>(x[i * ss]) - max);
      const M row = Normalise::row(max, sum);
      for (int64_t i = 0; i < n; ++i) y[i * so] = rt::value_cast<T>(Normalise::element(static_cast<M>(x[i * ss]), max, row));
    }
  } while (walk.next_row());
}

// The kernel of `op`: `op`(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out).
// `Dtypes` is the op's own DtypeDispatch (its selected dtypes come from its own header).
template <typename Dtypes, typename Normalise>
void normalise_along_dim(rt::KernelContext& context, rt::Span<rt::EValue* const> args, const char* op) {
  const rt::ArgReader in(context, op, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  int64_t dim = in.int_value(1, "dim");
  const bool half_to_float = in.bool_value(2, "half_to_float");
  rt::Tensor* out = in.tensor(3, "out");
  if (!in.ok() || !Dtypes::check(context, op, self->dtype())) return;
  if (half_to_float) return in.fail("half_to_float is not supported");
  if (out->dtype() != self->dtype()) return in.fail("out must have self's dtype");
  const int rank = self->dim();
  if (dim < 0) dim += rank > 0 ? rank : 1;  // a 0-dim tensor is one element
  if (dim < 0 || dim >= (rank > 0 ? rank : 1)) return in.fail("dim is out of range");
  if (!resize_out(in, *out, self->sizes().data(), rank) || out->numel() == 0) return;
  // Walk every position along the other dims; `dim` runs inside.
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < rank; ++d) sizes[d] = d == dim ? 1 : self->size(d);
  StridedWalk<2> walk;
  walk.init(sizes, rank);
  walk.set_operand(0, *self);
  walk.set_operand(1, *out);
  const int64_t n = rank > 0 ? self->size(static_cast<int>(dim)) : 1;
  const int64_t ss = rank > 0 ? self->stride(static_cast<int>(dim)) : 0;
  const int64_t so = rank > 0 ? out->stride(static_cast<int>(dim)) : 0;
  Dtypes::run(context, op, self->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    normalise_rows<Normalise, T>(walk, self->data_as<const T>(), out->data_as<T>(), n, ss, so);
  });
}

}  // namespace portable
