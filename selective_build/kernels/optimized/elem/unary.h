#pragma once

#include "kernels/optimized/elem/layout.h"
#include "kernels/optimized/elem/loops.h"
#include "kernels/optimized/elem/vmath.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {

// out = f(self) for an activation: one vector loop over memory when the call
// allows it (plan_fast_unary), else `portable_path()`, portable's template
// for the op (strided walks, other dtypes, and every check). f: V -> V
// (vmath.h). `Dtypes` is the op's DtypeDispatch: the fast path needs Float.
template <typename Dtypes, typename V = Vec, typename F, typename Portable>
void unary_kernel(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out, F f,
                  Portable portable_path) {
  bool empty = false;
  if (Dtypes::kEnabled.contains(rt::ScalarType::Float) && plan_fast_unary(in, self, out, &empty)) {
    if (empty) return;
    float* y = out.data_as<float>();
    const float* x = self.data_as<float>();
    split_elements(out.numel(), [&](int64_t begin, int64_t end) {
      map_vec<V>(y + begin, x + begin, end - begin, f);
    });
    return;
  }
  portable_path();
}

// min(max(x, lo), hi) as portable's UnaryClamp computes it: NaN stays NaN,
// hi wins when lo > hi. A missing bound is +-infinity.
template <typename V>
inline V clamp_vec(V x, float lo, float hi) {
  // Compared with the vectors they choose (equal to lo and hi as numbers), so compilers
  // make each line one max or min instruction.
  const V low_v = V{} + lo, high_v = V{} + hi;
  const V low = x < low_v ? low_v : x;
  return low > high_v ? high_v : low;
}

}  // namespace optimized
