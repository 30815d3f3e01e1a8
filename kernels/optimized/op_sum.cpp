#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/reduce.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::sum.IntList_out";
using Dtypes = FloatDtypes<&kOp>;

// portable's sum for other layouts.
struct Sum {
  template <typename M>
  static M init() {
    return M(0);
  }
  template <typename M>
  static M apply(M acc, M x) {
    return acc + x;
  }
  template <typename M>
  static M finish(M acc, int64_t) {
    return acc;
  }
};

}  // namespace

// sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
// See reduce_kernel (elem/reduce.h).
rt::Tensor& sum_IntList_out(rt::KernelContext& context, const rt::Tensor& self,
                            rt::Optional<rt::IntList> dim, bool keepdim,
                            rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  reduce_kernel<Dtypes, Sum>(context, kOp, self, dim, keepdim, dtype_arg, out, false);
  return out;
}

}  // namespace optimized
