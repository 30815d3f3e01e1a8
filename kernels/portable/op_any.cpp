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
using DtypesAllOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedAllOut.bits()>;
using DtypesDimsOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedDimsOut.bits()>;
using DtypesOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedOut.bits()>;

}  // namespace

// any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
void any_all_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kAllOut, args, 3);
  const rt::Tensor* self = in.tensor(0, "self");
  rt::Tensor* out = in.tensor(1, "out");
  any_all<DtypesAllOut>(in, args, self, 0, false, out, false);
}

// any.dims_out(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
void any_dims_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kDimsOut, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  const bool keepdim = in.bool_value(2, "keepdim");
  rt::Tensor* out = in.tensor(3, "out");
  any_all<DtypesDimsOut>(in, args, self, 1, keepdim, out, false);
}

// any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
void any_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOut, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  in.int_value(1, "dim");
  const bool keepdim = in.bool_value(2, "keepdim");
  rt::Tensor* out = in.tensor(3, "out");
  any_all<DtypesOut>(in, args, self, 1, keepdim, out, false);
}

}  // namespace portable
