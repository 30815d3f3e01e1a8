#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/reduce.h"
#include "kernels/portable/util/reduce_accumulate.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::mean.out";
using Dtypes = FloatDtypes<&kOp>;

// portable's mean for other layouts.
struct Mean {
  template <typename M>
  static M init() {
    return M(0);
  }
  template <typename M>
  static M apply(M acc, M x) {
    return acc + x;
  }
  template <typename M>
  static M finish(M acc, int64_t count) {
    return acc / static_cast<M>(count);
  }
};

}  // namespace

// mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
// portable's checks (Float only), then the contiguous trailing-dims rows, or portable's walk.
rt::Tensor& mean_out(rt::KernelContext& context, const rt::Tensor& self, rt::Optional<rt::IntList> dim, bool keepdim,
                     rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const int64_t dtype = portable::optional_dtype_arg(dtype_arg);
  uint32_t mask = 0;
  if (!portable::reduce_dims_arg(in, dim, self, true, &mask)) return out;
  if (!Dtypes::check(context, kOp, self.dtype()) || !Dtypes::check(context, kOp, out.dtype())) return out;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out.dtype())) {
    in.fail("out must have the dtype asked for");
    return out;
  }
  portable::ReducePlan plan;
  if (!portable::plan_reduce(in, self, mask, keepdim, out, &plan)) return out;
  if (trailing_reduce(self, mask, plan, true, out)) return out;
  Dtypes::run(context, kOp, out.dtype(), [&](auto tag) {
    portable::accumulate_reduce<Dtypes, Mean, typename decltype(tag)::type>(context, kOp, self, plan, out);
  });
  return out;
}

}  // namespace optimized
