#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/optimized/elem/loops.h"
#include "kernels/optimized/elem/vmath.h"
#include "kernels/portable/util/dim_rows.h"
#include "kernels/portable/util/nn_softmax.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {

// Note [Softmax rows]
// A row takes three passes over memory: its max, the sum of e^(x - max) (stored when the
// output wants them), then the output. They run on VecWide (16 lanes with AVX-512) with two
// vectors in flight, the max and the sum in two accumulators each: one accumulator's chain
// of dependent adds, not the arithmetic, set the pace. x - max <= 0 (or NaN), so the
// exponentials are exp_nonpositive's (Note [Sigmoid]: no clamps, a shorter polynomial). The
// output is e times the sum's reciprocal, one division a row: within a float ulp of e / sum.
// A row is always computed whole by one thread (Note [Split elementwise]), its sums in one
// order, so the bits do not depend on the thread count.

// The lanes of `v` reduced by `op` into one float.
template <typename V, typename Op>
inline float reduce_lanes(V v, Op op) {
  float lanes[lanes_of<V>];
  store(lanes, v);
  float total = lanes[0];
  for (int64_t k = 1; k < lanes_of<V>; ++k) total = op(total, lanes[k]);
  return total;
}

// The largest of x[0, n), n > 0; a NaN anywhere may or may not be returned
// (the sum of exponentials is NaN then, and so every output, either way).
inline float row_max(const float* x, int64_t n) {
  constexpr int64_t kStep = kWideLanes;
  const VecWide lowest = VecWide{} - __builtin_inff();
  VecWide m0 = lowest;
  VecWide m1 = lowest;
  int64_t i = 0;
  for (; i + 2 * kStep <= n; i += 2 * kStep) {
    m0 = vmax(m0, load<VecWide>(x + i));
    m1 = vmax(m1, load<VecWide>(x + i + kStep));
  }
  for (; i + kStep <= n; i += kStep) m0 = vmax(m0, load<VecWide>(x + i));
  if (i < n) m1 = vmax(m1, load_partial<VecWide>(x + i, n - i, -__builtin_inff()));
  return reduce_lanes(vmax(m0, m1), [](float a, float b) { return b > a ? b : a; });
}

// The sum of e^(x[i] - max) over [0, n); with `y`, each term is stored there.
inline float row_exp_sum(const float* x, float max, int64_t n, float* y) {
  constexpr int64_t kStep = kWideLanes;
  VecWide sum0{};
  VecWide sum1{};
  int64_t i = 0;
  for (; i + 2 * kStep <= n; i += 2 * kStep) {
    const VecWide e0 = exp_nonpositive(load<VecWide>(x + i) - max);
    const VecWide e1 = exp_nonpositive(load<VecWide>(x + i + kStep) - max);
    if (y != nullptr) {
      store(y + i, e0);
      store(y + i + kStep, e1);
    }
    sum0 += e0;
    sum1 += e1;
  }
  for (; i + kStep <= n; i += kStep) {
    const VecWide e = exp_nonpositive(load<VecWide>(x + i) - max);
    if (y != nullptr) store(y + i, e);
    sum0 += e;
  }
  if (i < n) {
    // e^-inf = 0 past the end
    const VecWide e = exp_nonpositive(load_partial<VecWide>(x + i, n - i, -__builtin_inff()) - max);
    if (y != nullptr) store_partial(y + i, e, n - i);
    sum1 += e;
  }
  return reduce_lanes(sum0 + sum1, [](float a, float b) { return a + b; });
}

// softmax of one contiguous row: e^(x - max) / sum (Note [Softmax rows]).
inline void softmax_row(const float* x, float* y, int64_t n) {
  const float max = row_max(x, n);
  const float scale = 1.0f / row_exp_sum(x, max, n, y);
  map_vec<VecWide>(y, y, n, [scale](VecWide e) { return e * scale; });
}

// log_softmax of one contiguous row: x - (max + log(sum)).
inline void log_softmax_row(const float* x, float* y, int64_t n) {
  const float max = row_max(x, n);
  const float shift = max + std::log(row_exp_sum(x, max, n, nullptr));
  map_vec<VecWide>(y, x, n, [shift](VecWide v) { return v - shift; });
}

// The kernel of _softmax.out or _log_softmax.out: portable's checks, then
// `row` over each row when the normalised dim is contiguous in self and out
// (the last dim of a contiguous tensor), else portable's strided rows with
// `Normalise` (nn_softmax.h).
template <typename Dtypes, typename Normalise, typename Row>
void normalise_kernel(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                      int64_t dim, bool half_to_float, rt::Tensor& out, Row row) {
  if (!(Dtypes::kEnabled.contains(rt::ScalarType::Float) &&
        self.dtype() == rt::ScalarType::Float)) {
    return portable::normalise_along_dim<Dtypes, Normalise>(context, op, self, dim, half_to_float,
                                                            out);
  }
  const rt::OpContext in(context, op);
  if (half_to_float) return in.fail("half_to_float is not supported");
  if (out.dtype() != self.dtype()) return in.fail("out must have self's dtype");
  portable::DimRows rows;
  if (!portable::plan_dim_rows(in, self, out, dim, &rows)) return;
  const float* x = self.data_as<const float>();
  float* y = out.data_as<float>();
  if (rows.self_stride != 1 || rows.out_stride != 1)
    return portable::normalise_rows<Normalise, float>(rows, x, y);
  if (self.is_contiguous() && out.is_contiguous() && rows.n > 0) {
    // The last dim of contiguous tensors: row r at r * n in both, rows split over the
    // threads (Note [Split elementwise]: each row is computed whole).
    split_rows(self.numel() / rows.n, rows.n, [&](int64_t first, int64_t last) {
      for (int64_t r = first; r < last; ++r) row(x + r * rows.n, y + r * rows.n, rows.n);
    });
    return;
  }
  portable::StridedWalk<2>& walk = rows.walk;
  do {
    for (int64_t r = 0; r < walk.row_size(); ++r) {
      row(x + walk.offset(0) + r * walk.row_stride(0), y + walk.offset(1) + r * walk.row_stride(1),
          rows.n);
    }
  } while (walk.next_row());
}

}  // namespace optimized
