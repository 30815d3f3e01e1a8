#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "dim_order_ops::_clone_dim_order.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::DtypeSet::all().bits(), kSelected.bits()>;

}  // namespace

// _clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
//     -> Tensor(a!)
void _clone_dim_order_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  in.bool_value(1, "non_blocking");
  rt::Tensor* out = in.tensor(3, "out");
  if (!in.ok()) return;  // self or out is null: no reference may bind to it
  if (!shape_check_dim_order(in, args, 2, *self, *out) || !shape_same_dtype<Dtypes>(in, *self, *out)) return;
  if (!resize_out(in, *out, self->sizes().data(), self->dim())) return;
  copy_same_shape(*out, *self);
}

}  // namespace portable
