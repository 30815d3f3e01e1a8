#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_logical.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kAllOut = "aten::all.all_out";
constexpr const char* kDimsOut = "aten::all.dims_out";
constexpr rt::DtypeSet kSelectedAllOut = rt::selected_dtypes(kAllOut);
constexpr rt::DtypeSet kSelectedDimsOut = rt::selected_dtypes(kDimsOut);
using DtypesAllOut =
    rt::DtypeDispatch<kernels::declared_dtypes(kAllOut).bits(), kSelectedAllOut.bits()>;
using DtypesDimsOut =
    rt::DtypeDispatch<kernels::declared_dtypes(kDimsOut).bits(), kSelectedDimsOut.bits()>;

}  // namespace

// all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& all_all_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kAllOut);
  any_all<DtypesAllOut>(in, self, all_dims_mask(self), false, out, true);
  return out;
}

// all.dims_out(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& all_dims_out(rt::KernelContext& context, const rt::Tensor& self,
                         rt::Optional<rt::IntList> dim, bool keepdim, rt::Tensor& out) {
  const rt::OpContext in(context, kDimsOut);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, true, &mask)) return out;
  any_all<DtypesDimsOut>(in, self, mask, keepdim, out, true);
  return out;
}

}  // namespace portable
