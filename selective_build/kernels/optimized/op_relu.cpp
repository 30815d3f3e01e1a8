#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::relu.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& relu_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  // x <= 0 is false for NaN, which stays.
  unary_kernel<Dtypes>(
      in, self, out, [](Vec x) { return x <= 0.0f ? splat(0.0f) : x; },
      [&] { portable::unary_op<Dtypes, portable::Relu>(in, &self, &out); });
  return out;
}

}  // namespace optimized
