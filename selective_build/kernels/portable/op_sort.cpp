#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_sort.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::sort.values";
constexpr const char* kStableOp = "aten::sort.values_stable";
// Dtypes of self and values; indices are int64.
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
using StableDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kStableOp).bits(),
                                       rt::selected_dtypes(kStableOp).bits()>;

// Every sort is stable (see shape_sort.h), whatever `stable` says.
template <typename Dispatch>
void sort(const rt::OpContext& in, SortPlan& plan, int64_t dim) {
  if (!in.ok() || !Dispatch::check(in.context(), in.op(), plan.self->dtype())) return;
  if (!plan_sort(in, dim, 0, true, &plan)) return;
  Dispatch::run(in.context(), in.op(), plan.self->dtype(),
                [&](auto tag) { sort_slices<typename decltype(tag)::type>(plan); });
}

}  // namespace

// sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void sort_values(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool descending,
                 rt::Tensor& values, rt::Tensor& indices) {
  const rt::OpContext in(context, kOp);
  SortPlan plan;
  plan.self = &self;
  plan.largest = descending;
  plan.values = &values;
  plan.indices = &indices;
  sort<Dtypes>(in, plan, dim);
}

// sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values,
//     Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
void sort_values_stable(rt::KernelContext& context, const rt::Tensor& self,
                        rt::Optional<bool> /*stable*/, int64_t dim, bool descending,
                        rt::Tensor& values, rt::Tensor& indices) {
  const rt::OpContext in(context, kStableOp);
  SortPlan plan;
  plan.self = &self;
  plan.largest = descending;
  plan.values = &values;
  plan.indices = &indices;
  sort<StableDtypes>(in, plan, dim);
}

}  // namespace portable
