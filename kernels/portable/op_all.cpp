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
using DtypesAllOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedAllOut.bits()>;
using DtypesDimsOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedDimsOut.bits()>;

}  // namespace

// all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
void all_all_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kAllOut, args, 3);
  const rt::Tensor* self = in.tensor(0, "self");
  rt::Tensor* out = in.tensor(1, "out");
  any_all<DtypesAllOut>(in, args, self, 0, false, out, true);
}

// all.dims_out(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
void all_dims_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kDimsOut, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  const bool keepdim = in.bool_value(2, "keepdim");
  rt::Tensor* out = in.tensor(3, "out");
  any_all<DtypesDimsOut>(in, args, self, 1, keepdim, out, true);
}

}  // namespace portable
