#pragma once

#include <cstdint>

#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

namespace {  // the functors' instantiations stay in their kernel (Note [Shared kernel checks])

// The folds of sum and mean (for accumulate_reduce, and the optimized kernels' other
// layouts, so both compute the same bits).
struct Sum {
  template <typename M>
  static M init() {
    return M(0);
  }
  template <typename M>
  static M apply(M acc, M x) {
    return op_add(acc, x);
  }
  template <typename M>
  static M finish(M acc, int64_t) {
    return acc;
  }
};

// An empty reduction gives 0 / 0: NaN, as torch.
struct Mean : Sum {
  template <typename M>
  static M finish(M acc, int64_t count) {
    return acc / static_cast<M>(count);
  }
};

}  // namespace

// Folds self over a planned reduction into out with Op::apply(acc, x) from
// Op::init<M>(), computing in opmath_t of out's dtype T (self's elements are
// converted to it as they are loaded); Op::finish(acc, count) gives the
// result. One loop per out dtype; loads go through a pointer per self dtype.
template <typename Dtypes, typename Op, typename T>
void accumulate_reduce(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                       ReducePlan& plan, rt::Tensor& out) {
  using M = opmath_t<T>;
  M (*load)(const uint8_t*) = nullptr;
  Dtypes::run(context, op, self.dtype(),
              [&](auto t) { load = &load_as<M, typename decltype(t)::type>; });
  if (load == nullptr) return;
  const uint8_t* base = static_cast<const uint8_t*>(self.data());
  const int64_t element = static_cast<int64_t>(self.element_size());
  T* po = out.data_as<T>();
  const int64_t n = plan.inner_numel;
  for_each_reduced(plan, [&](int64_t so, int64_t oo) {
    M acc = Op::template init<M>();
    for (int64_t i = 0; i < n; ++i) {
      acc = Op::apply(acc, load(base + (so + plan.inner.offset[0]) * element));
      plan.inner.next();
    }
    po[oo] = rt::value_cast<T>(Op::finish(acc, n));
  });
}

}  // namespace portable
