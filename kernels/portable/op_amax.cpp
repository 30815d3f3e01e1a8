#include <cstdint>

#include "kernels/portable/util/reduce_extreme.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::amax.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
void amax_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  const bool keepdim = in.bool_value(2, "keepdim");
  rt::Tensor* out = in.tensor(3, "out");
  uint32_t mask = 0;
  if (!in.ok() || !reduce_dims_arg(in, args, 1, *self, true, &mask)) return;
  if (!Dtypes::check(context, kOp, self->dtype())) return;
  if (out->dtype() != self->dtype()) return in.fail("out must have self's dtype");
  ReducePlan plan;
  if (!plan_reduce(in, *self, mask, keepdim, *out, &plan)) return;
  if (plan.inner_numel == 0 && plan.outer_numel != 0) return in.fail("cannot reduce over a dim of size 0");
  Dtypes::run(context, kOp, self->dtype(), [&](auto tag) {
    find_extremes<true, typename decltype(tag)::type>(plan, *self, out, nullptr);
  });
}

}  // namespace portable
