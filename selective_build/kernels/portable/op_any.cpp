#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_logical.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kAllOut = "aten::any.all_out";
constexpr const char* kDimsOut = "aten::any.dims_out";
constexpr const char* kOut = "aten::any.out";
constexpr rt::DtypeSet kSelectedAllOut = rt::selected_dtypes(kAllOut);
constexpr rt::DtypeSet kSelectedDimsOut = rt::selected_dtypes(kDimsOut);
constexpr rt::DtypeSet kSelectedOut = rt::selected_dtypes(kOut);
using DtypesAllOut =
    rt::DtypeDispatch<kernels::declared_dtypes(kAllOut).bits(), kSelectedAllOut.bits()>;
using DtypesDimsOut =
    rt::DtypeDispatch<kernels::declared_dtypes(kDimsOut).bits(), kSelectedDimsOut.bits()>;
using DtypesOut = rt::DtypeDispatch<kernels::declared_dtypes(kOut).bits(), kSelectedOut.bits()>;

}  // namespace

// any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& any_all_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kAllOut);
  any_all<DtypesAllOut>(in, self, all_dims_mask(self), false, out, false);
  return out;
}

// any.dims_out(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& any_dims_out(rt::KernelContext& context, const rt::Tensor& self,
                         rt::Optional<rt::IntList> dim, bool keepdim, rt::Tensor& out) {
  const rt::OpContext in(context, kDimsOut);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, true, &mask)) return out;
  any_all<DtypesDimsOut>(in, self, mask, keepdim, out, false);
  return out;
}

// any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& any_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool keepdim,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOut);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, rt::Optional<int64_t>(dim), self, &mask)) return out;
  any_all<DtypesOut>(in, self, mask, keepdim, out, false);
  return out;
}

}  // namespace portable
