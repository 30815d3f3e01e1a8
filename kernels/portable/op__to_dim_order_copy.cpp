#include <cstdint>

#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "dim_order_ops::_to_dim_order_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// _to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
void _to_dim_order_copy_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  in.bool_value(1, "non_blocking");
  rt::Tensor* out = in.tensor(3, "out");
  if (!in.ok()) return;  // self or out is null: no reference may bind to it
  if (!shape_check_dim_order(in, args, 2, *self, *out)) return;
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, self->dtype(), [&](auto t) { copy_set_source<typename decltype(t)::type>(converter); }) ||
      !Dtypes::run(context, kOp, out->dtype(), [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return;
  }
  if (!resize_out(in, *out, self->sizes().data(), self->dim())) return;
  if (self->dtype() == out->dtype()) return copy_same_shape(*out, *self);
  copy_convert(*out, *self, converter);
}

}  // namespace portable
