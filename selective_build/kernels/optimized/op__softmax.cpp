#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/softmax.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::_softmax.out";

}  // namespace

// _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _softmax_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                         bool half_to_float, rt::Tensor& out) {
  normalise_kernel<FloatDtypes<&kOp>, portable::Softmax>(context, kOp, self, dim, half_to_float,
                                                         out, softmax_row);
  return out;
}

}  // namespace optimized
