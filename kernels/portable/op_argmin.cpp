#include <cstdint>

#include "kernels/portable/util/reduce_extreme.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::argmin.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// torch has no argmin of bool tensors.
using Dtypes = rt::DtypeDispatch<rt::kRealDtypes.bits(), kSelected.bits()>;

}  // namespace

// argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
void argmin_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  const bool keepdim = in.bool_value(2, "keepdim");
  rt::Tensor* out = in.tensor(3, "out");
  uint32_t mask = 0;
  if (!in.ok() || !reduce_dims_arg(in, args, 1, *self, false, &mask)) return;
  if (!Dtypes::check(context, kOp, self->dtype())) return;
  if (out->dtype() != rt::ScalarType::Long) return in.fail("out must be int64");
  // With dim None the index is into the flattened self, over every dim.
  ReducePlan plan;
  if (!plan_reduce(in, *self, mask, keepdim, *out, &plan)) return;
  if (plan.inner_numel == 0 && plan.outer_numel != 0) return in.fail("cannot reduce over a dim of size 0");
  Dtypes::run(context, kOp, self->dtype(), [&](auto tag) {
    find_extremes<false, typename decltype(tag)::type>(plan, *self, nullptr, out);
  });
}

}  // namespace portable
