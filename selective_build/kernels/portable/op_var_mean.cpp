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
      // The outs may have another floating dtype than self, as ExecuTorch's kernel allows.
      using U = typename decltype(u)::type;
      U* pv = out0.data_as<U>();
      U* pm = out1.data_as<U>();
      reduce_variance(plan, self.data_as<const typename decltype(t)::type>(), c,
                      [&](int64_t oo, double variance, double mean) {
                        pv[oo] = rt::value_cast<U>(variance);
                        pm[oo] = rt::value_cast<U>(mean);
                      });
    });
  });
}

}  // namespace portable
