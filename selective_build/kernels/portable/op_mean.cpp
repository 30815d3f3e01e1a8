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

constexpr const char* kOp = "aten::mean.out";
constexpr const char* kAllOp = "aten::mean.dtype_out";
// self may be any real or bool dtype when dtype= names a floating out.
template <const char* const* kName>
using DtypesOf =
    rt::DtypeDispatch<kernels::declared_dtypes(*kName).bits(), rt::selected_dtypes(*kName).bits()>;
template <const char* const* kName>
using OutDtypesOf =
    rt::DtypeDispatch<(kernels::declared_dtypes(*kName) & rt::kFloatingDtypes).bits(),
                      rt::selected_dtypes(*kName).bits()>;

// Both overloads: the mean over `dim` (every dim when absent or empty).
template <const char* const* kName>
void mean(rt::KernelContext& context, const rt::Tensor& self, rt::Optional<rt::IntList> dim,
          bool keepdim, rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  using Dtypes = DtypesOf<kName>;
  using OutDtypes = OutDtypesOf<kName>;
  const char* op = *kName;
  const rt::OpContext in(context, op);
  uint32_t mask = 0;
  if (!check_sum_args<Dtypes>(in, self, dim, dtype_arg, out, &mask) ||
      !OutDtypes::check(context, op, out.dtype())) {
    return;
  }
  if (!dtype_arg.has_value() && !rt::is_floating_type(self.dtype())) {
    return in.fail("self must be floating point unless dtype names a floating point type");
  }
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return;
  OutDtypes::run(context, op, out.dtype(), [&](auto tag) {
    accumulate_reduce<Dtypes, Mean, typename decltype(tag)::type>(context, op, self, plan, out);
  });
}

}  // namespace

// mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
rt::Tensor& mean_out(rt::KernelContext& context, const rt::Tensor& self,
                     rt::Optional<rt::IntList> dim, bool keepdim,
                     rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  mean<&kOp>(context, self, dim, keepdim, dtype_arg, out);
  return out;
}

// mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mean_dtype_out(rt::KernelContext& context, const rt::Tensor& self,
                           rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  mean<&kAllOp>(context, self, rt::Optional<rt::IntList>(), false, dtype_arg, out);
  return out;
}

}  // namespace portable
