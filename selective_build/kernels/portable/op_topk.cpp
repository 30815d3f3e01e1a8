#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_sort.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::topk.values";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and values (torch has no bool topk); indices are int64.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values,
//     Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
// The entries always come sorted (ties in self's order), which is also a
// valid answer to sorted=False.
void topk_values(rt::KernelContext& context, const rt::Tensor& self, int64_t k, int64_t dim,
                 bool largest, bool /*sorted*/, rt::Tensor& values, rt::Tensor& indices) {
  const rt::OpContext in(context, kOp);
  SortPlan plan;
  plan.self = &self;
  plan.largest = largest;
  plan.values = &values;
  plan.indices = &indices;
  if (!Dtypes::check(context, kOp, plan.self->dtype()) || !plan_sort(in, dim, k, false, &plan))
    return;
  Dtypes::run(context, kOp, plan.self->dtype(),
              [&](auto tag) { sort_slices<typename decltype(tag)::type>(plan); });
}

}  // namespace portable
