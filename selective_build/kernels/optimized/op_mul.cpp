#include "kernels/optimized/elem/binary.h"
#include "kernels/optimized/elem/dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::mul.out";
constexpr const char* kScalarOp = "aten::mul.Scalar_out";

}  // namespace

// mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mul_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Tensor& out) {
  binary_kernel<FloatDtypes<&kOp>, portable::Mul>(context, kOp, self, other, nullptr, out);
  return out;
}

// mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mul_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Tensor& out) {
  binary_scalar_kernel<FloatDtypes<&kScalarOp>, portable::Mul>(context, kScalarOp, self, other,
                                                               nullptr, out);
  return out;
}

}  // namespace optimized
