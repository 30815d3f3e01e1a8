#include <cstdint>

#include "kernels/common/declared_dtypes.h"
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
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
rt::Tensor& sum_IntList_out(rt::KernelContext& context, const rt::Tensor& self,
                            rt::Optional<rt::IntList> dim, bool keepdim,
                            rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  uint32_t mask = 0;
  if (!check_sum_args<Dtypes>(in, self, dim, dtype_arg, out, &mask)) return out;
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return out;
  Dtypes::run(context, kOp, out.dtype(), [&](auto tag) {
    accumulate_reduce<Dtypes, Sum, typename decltype(tag)::type>(context, kOp, self, plan, out);
  });
  return out;
}

}  // namespace portable
