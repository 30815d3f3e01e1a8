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

// The largest of x[0, n), n > 0; a NaN anywhere may or may not be returned
// (the sum of exponentials is NaN then, and so every output, either way).
inline float row_max(const float* x, int64_t n) {
  Vec m = splat(-__builtin_inff());
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) m = vmax(m, load(x + i));
  if (i < n) m = vmax(m, load_partial(x + i, n - i, -__builtin_inff()));
  float lanes[kLanes];
  store(lanes, m);
  float best = lanes[0];
  for (int64_t k = 1; k < kLanes; ++k) best = lanes[k] > best ? lanes[k] : best;
  return best;
}

// The sum of e^(x[i] - max) over [0, n); with `y`, each term is stored there.
inline float row_exp_sum(const float* x, float max, int64_t n, float* y) {
  Vec sum = splat(0.0f);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const Vec e = exp_approx(load(x + i) - max);
    if (y != nullptr) store(y + i, e);
    sum += e;
  }
  if (i < n) {
    const Vec e =
        exp_approx(load_partial(x + i, n - i, -__builtin_inff()) - max);  // e^-inf = 0 past the end
    if (y != nullptr) store_partial(y + i, e, n - i);
    sum += e;
  }
  float lanes[kLanes];
  store(lanes, sum);
  float total = 0.0f;
  for (int64_t k = 0; k < kLanes; ++k) total += lanes[k];
  return total;
}

// softmax of one contiguous row: e^(x - max) / sum.
inline void softmax_row(const float* x, float* y, int64_t n) {
  const float max = row_max(x, n);
  const float sum = row_exp_sum(x, max, n, y);
  map_vec(y, y, n, [sum](Vec e) { return e / sum; });
}

// log_softmax of one contiguous row: x - (max + log(sum)).
inline void log_softmax_row(const float* x, float* y, int64_t n) {
  const float max = row_max(x, n);
  const float shift = max + std::log(row_exp_sum(x, max, n, nullptr));
  map_vec(y, x, n, [shift](Vec v) { return v - shift; });
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
