#include "kernels/optimized/elem/binary.h"
#include "kernels/optimized/elem/dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::sub.out";
constexpr const char* kScalarOp = "aten::sub.Scalar_out";

}  // namespace

// sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sub_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Scalar alpha, rt::Tensor& out) {
  binary_kernel<FloatDtypes<&kOp>, portable::Sub>(context, kOp, self, other, &alpha, out);
  return out;
}

// sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sub_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Scalar alpha, rt::Tensor& out) {
  binary_scalar_kernel<FloatDtypes<&kScalarOp>, portable::Sub>(context, kScalarOp, self, other,
                                                               &alpha, out);
  return out;
}

}  // namespace optimized
