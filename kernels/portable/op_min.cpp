#include <cstdint>

#include "kernels/portable/util/reduce_extreme.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::min.dim_min";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and values; indices are int64 whatever the selection.
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_values)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void min_dim_min(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 6);
  const rt::Tensor* self = in.tensor(0, "self");
  in.int_value(1, "dim");
  const bool keepdim = in.bool_value(2, "keepdim");
  rt::Tensor* values = in.tensor(3, "min");
  rt::Tensor* indices = in.tensor(4, "min_values");
  uint32_t mask = 0;
  if (!in.ok() || !reduce_dims_arg(in, args, 1, *self, false, &mask)) return;
  if (!Dtypes::check(context, kOp, self->dtype())) return;
  if (values->dtype() != self->dtype()) return in.fail("values must have self's dtype");
  if (indices->dtype() != rt::ScalarType::Long) return in.fail("indices must be int64");
  ReducePlan plan;
  if (!plan_reduce(in, *self, mask, keepdim, *indices, &plan) ||
      !plan_reduce(in, *self, mask, keepdim, *values, &plan)) {
    return;
  }
  if (plan.inner_numel == 0 && plan.outer_numel != 0) return in.fail("cannot reduce over a dim of size 0");
  Dtypes::run(context, kOp, self->dtype(), [&](auto tag) {
    find_extremes<false, typename decltype(tag)::type>(plan, *self, values, indices);
  });
}

}  // namespace portable
