#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/reduce.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::sum.IntList_out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
// See reduce_kernel (elem/reduce.h).
rt::Tensor& sum_IntList_out(rt::KernelContext& context, const rt::Tensor& self,
                            rt::Optional<rt::IntList> dim, bool keepdim,
                            rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  reduce_kernel<Dtypes, portable::Sum>(context, kOp, self, dim, keepdim, dtype_arg, out, false);
  return out;
}

}  // namespace optimized
