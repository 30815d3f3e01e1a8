#include <cstdint>

#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/reduce_accumulate.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::sum.IntList_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

struct Sum {
  template <typename M>
  static M init() {
    return M(0);
  }
  template <typename M>
  static M apply(M acc, M x) {
    return op_add(acc, x);
  }
  template <typename M>
  static M finish(M acc, int64_t) {
    return acc;
  }
};

}  // namespace

// sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
void sum_IntList_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 6);
  const rt::Tensor* self = in.tensor(0, "self");
  const bool keepdim = in.bool_value(2, "keepdim");
  const int64_t dtype = optional_dtype_arg(in, args, 3);
  rt::Tensor* out = in.tensor(4, "out");
  uint32_t mask = 0;
  if (!in.ok() || !reduce_dims_arg(in, args, 1, *self, true, &mask)) return;
  if (!Dtypes::check(context, kOp, self->dtype())) return;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out->dtype())) return in.fail("out must have the dtype asked for");
  ReducePlan plan;
  if (!plan_reduce(in, *self, mask, keepdim, *out, &plan)) return;
  Dtypes::run(context, kOp, out->dtype(), [&](auto tag) {
    accumulate_reduce<Dtypes, Sum, typename decltype(tag)::type>(context, kOp, *self, plan, *out);
  });
}

}  // namespace portable
