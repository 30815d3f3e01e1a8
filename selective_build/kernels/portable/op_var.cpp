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

constexpr const char* kCorrectionOut = "aten::var.correction_out";
constexpr const char* kOut = "aten::var.out";
constexpr rt::DtypeSet kSelectedCorrectionOut = rt::selected_dtypes(kCorrectionOut);
constexpr rt::DtypeSet kSelectedOut = rt::selected_dtypes(kOut);
using DtypesCorrectionOut = rt::DtypeDispatch<kernels::declared_dtypes(kCorrectionOut).bits(),
                                              kSelectedCorrectionOut.bits()>;
using DtypesOut = rt::DtypeDispatch<kernels::declared_dtypes(kOut).bits(), kSelectedOut.bits()>;

template <typename Dtypes>
void var(const rt::OpContext& in, const rt::Tensor& self, rt::Optional<rt::IntList> dim,
         bool keepdim, double correction, rt::Tensor& out) {
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, true, &mask)) return;
  if (!Dtypes::check(in.context(), in.op(), self.dtype())) return;
  if (out.dtype() != self.dtype()) return in.fail("out must have self's dtype");
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return;
  Dtypes::run(in.context(), in.op(), self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* po = out.data_as<T>();
    reduce_variance(
        plan, self.data_as<const T>(), correction,
        [&](int64_t oo, double variance, double) { po[oo] = rt::value_cast<T>(variance); });
  });
}

}  // namespace

// var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False,
//     Tensor(a!) out) -> Tensor(a!)
rt::Tensor& var_correction_out(rt::KernelContext& context, const rt::Tensor& self,
                               rt::Optional<rt::IntList> dim, rt::Optional<rt::Scalar> correction,
                               bool keepdim, rt::Tensor& out) {
  const rt::OpContext in(context, kCorrectionOut);
  var<DtypesCorrectionOut>(in, self, dim, keepdim,
                           correction.has_value() ? correction.value().to<double>() : 1.0, out);
  return out;
}

// var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& var_out(rt::KernelContext& context, const rt::Tensor& self,
                    rt::Optional<rt::IntList> dim, bool unbiased, bool keepdim, rt::Tensor& out) {
  const rt::OpContext in(context, kOut);
  var<DtypesOut>(in, self, dim, keepdim, unbiased ? 1.0 : 0.0, out);
  return out;
}

}  // namespace portable
