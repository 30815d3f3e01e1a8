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

constexpr const char* kOp = "aten::mean.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// self may be any real or bool dtype when dtype= names a floating out.
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;
using OutDtypes = rt::DtypeDispatch<rt::kFloatingDtypes.bits(), kSelected.bits()>;

struct Mean {
  template <typename M>
  static M init() {
    return M(0);
  }
  template <typename M>
  static M apply(M acc, M x) {
    return acc + x;
  }
  // An empty reduction gives 0 / 0: NaN, as torch.
  template <typename M>
  static M finish(M acc, int64_t count) {
    return acc / static_cast<M>(count);
  }
};

}  // namespace

// mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
rt::Tensor& mean_out(rt::KernelContext& context, const rt::Tensor& self, rt::Optional<rt::IntList> dim, bool keepdim,
                     rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const int64_t dtype = optional_dtype_arg(dtype_arg);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, dim, self, true, &mask)) return out;
  if (!Dtypes::check(context, kOp, self.dtype()) || !OutDtypes::check(context, kOp, out.dtype())) return out;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out.dtype())) {
    in.fail("out must have the dtype asked for");
    return out;
  }
  if (dtype < 0 && !rt::is_floating_type(self.dtype())) {
    in.fail("self must be floating point unless dtype names a floating point type");
    return out;
  }
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return out;
  OutDtypes::run(context, kOp, out.dtype(), [&](auto tag) {
    accumulate_reduce<Dtypes, Mean, typename decltype(tag)::type>(context, kOp, self, plan, out);
  });
  return out;
}

}  // namespace portable
