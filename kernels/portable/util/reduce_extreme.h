#pragma once

#include <cstdint>

#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/value_cast.h"

namespace portable {

// The max (kMax) or min of self over a planned reduction with a nonempty
// inner part, and the index of its first occurrence in the reduced elements
// (row-major). A NaN beats every number (its first occurrence is kept), as
// torch. Values go to plan's out operand when `values` is set; indices to
// `indices` at row-major output positions, or to plan's out operand when
// there are no values.
template <bool kMax, typename T>
void find_extremes(ReducePlan& plan, const rt::Tensor& self, rt::Tensor* values, rt::Tensor* indices) {
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

}  // namespace portable
