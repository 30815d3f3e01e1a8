#pragma once

#include <cstdint>

#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// any (is_all false) or all of self != 0 over a planned reduction, written
// as 0 or 1 into out's bytes (bool, or uint8 for a uint8 self).
template <typename T>
void logical_reduce(ReducePlan& plan, const rt::Tensor& self, rt::Tensor& out, bool is_all) {
  const T* x = self.data_as<const T>();
  uint8_t* po = out.data_as<uint8_t>();
  const int64_t n = plan.inner_numel;
  for_each_reduced(plan, [&](int64_t so, int64_t oo) {
    bool result = is_all;
    for (int64_t i = 0; i < n; ++i) {
      // Keep stepping (the counter must come back to its start) but stop testing.
      if (result == is_all) result = rt::value_cast<bool>(x[so + plan.inner.offset[0]]);
      plan.inner.next();
    }
    po[oo] = result ? 1 : 0;
  });
}

// The shared body of the any/all overloads, reducing over the dims in `mask`.
template <typename Dtypes>
void any_all(const rt::OpContext& in, const rt::Tensor& self, uint32_t mask, bool keepdim,
             rt::Tensor& out, bool is_all) {
  if (!Dtypes::check(in.context(), in.op(), self.dtype())) return;
  if (out.dtype() != rt::ScalarType::Bool &&
      !(out.dtype() == rt::ScalarType::Byte && self.dtype() == rt::ScalarType::Byte)) {
    return in.fail("out must be bool (or uint8 for a uint8 self)");
  }
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return;
  Dtypes::run(in.context(), in.op(), self.dtype(), [&](auto tag) {
    logical_reduce<typename decltype(tag)::type>(plan, self, out, is_all);
  });
}

}  // namespace portable
