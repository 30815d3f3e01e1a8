#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::var_mean.correction_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Variance (into var) and mean (into mean, same shape and dim order) over a
// planned reduction of T-typed self, two passes in double, stored as U (the
// outs may have another floating dtype, as ExecuTorch's kernel allows). The
// variance divides by max(0, n - correction), as torch's var does.
template <typename T, typename U>
void var_mean(ReducePlan& plan, const rt::Tensor& self, rt::Tensor& var, rt::Tensor& mean,
              double correction) {
  const T* x = self.data_as<const T>();
  U* pv = var.data_as<U>();
  U* pm = mean.data_as<U>();
  const int64_t n = plan.inner_numel;
  const double divisor =
      static_cast<double>(n) - correction > 0 ? static_cast<double>(n) - correction : 0.0;
  for_each_reduced(plan, [&](int64_t so, int64_t oo) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      sum += rt::value_cast<double>(x[so + plan.inner.offset[0]]);
      plan.inner.next();
    }
    const double m = sum / static_cast<double>(n);
    double squares = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double d = rt::value_cast<double>(x[so + plan.inner.offset[0]]) - m;
      squares += d * d;
      plan.inner.next();
    }
    pv[oo] = rt::value_cast<U>(squares / divisor);
    pm[oo] = rt::value_cast<U>(m);
  });
}

bool same_dim_order(const rt::Tensor& a, const rt::Tensor& b) {
  for (int d = 0; d < a.dim(); ++d) {
    if (a.dim_order()[d] != b.dim_order()[d]) return false;
  }
  return true;
}

}  // namespace

// var_mean.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False,
//     Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))
void var_mean_correction_out(rt::KernelContext& context, const rt::Tensor& self,
                             rt::Optional<rt::IntList> dim, rt::Optional<rt::Scalar> correction,
                             bool keepdim, rt::Tensor& out0, rt::Tensor& out1) {
  const rt::OpContext in(context, kOp);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, true, &mask)) return;
  if (!Dtypes::check(context, kOp, self.dtype()) || !Dtypes::check(context, kOp, out0.dtype()))
    return;
  if (out1.dtype() != out0.dtype()) return in.fail("out0 and out1 must have the same dtype");
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out0, &plan)) return;
  if (!resize_out(in, out1, out0.sizes().data(), out0.dim())) return;
  // The walk's out offsets are out0's: out1 must lay its elements out alike.
  if (!same_dim_order(out0, out1)) return in.fail("out0 and out1 must have the same dim order");
  const double c = correction.has_value() ? correction.value().to<double>() : 1.0;
  Dtypes::run(context, kOp, self.dtype(), [&](auto t) {
    Dtypes::run(context, kOp, out0.dtype(), [&](auto u) {
      var_mean<typename decltype(t)::type, typename decltype(u)::type>(plan, self, out0, out1, c);
    });
  });
}

}  // namespace portable
