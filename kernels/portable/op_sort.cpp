#include <cstdint>

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
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), rt::selected_dtypes(kOp).bits()>;
using StableDtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), rt::selected_dtypes(kStableOp).bits()>;

// Every sort is stable (see shape_sort.h), whatever `stable` says.
template <typename Dispatch>
void sort(const rt::ArgReader& in, SortPlan& plan, int64_t dim) {
  if (!in.ok() || !Dispatch::check(in.context(), in.op(), plan.self->dtype())) return;
  if (!plan_sort(in, dim, 0, true, &plan)) return;
  Dispatch::run(in.context(), in.op(), plan.self->dtype(),
                [&](auto tag) { sort_slices<typename decltype(tag)::type>(plan); });
}

}  // namespace

// sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices)
//     -> (Tensor(a!) values, Tensor(b!) indices)
void sort_values(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 6);
  SortPlan plan;
  plan.self = in.tensor(0, "self");
  const int64_t dim = in.int_value(1, "dim");
  plan.largest = in.bool_value(2, "descending");
  plan.values = in.tensor(3, "values");
  plan.indices = in.tensor(4, "indices");
  sort<Dtypes>(in, plan, dim);
}

// sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values,
//     Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
void sort_values_stable(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kStableOp, args, 7);
  SortPlan plan;
  plan.self = in.tensor(0, "self");
  if (in.ok() && !args[1]->is_none()) in.bool_value(1, "stable");
  const int64_t dim = in.int_value(2, "dim");
  plan.largest = in.bool_value(3, "descending");
  plan.values = in.tensor(4, "values");
  plan.indices = in.tensor(5, "indices");
  sort<StableDtypes>(in, plan, dim);
}

}  // namespace portable
