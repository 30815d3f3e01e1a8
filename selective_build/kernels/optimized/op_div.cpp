#include "kernels/optimized/elem/binary.h"
#include "kernels/optimized/elem/dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::div.out";
constexpr const char* kScalarOp = "aten::div.Scalar_out";

}  // namespace

// div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Tensor& out) {
  binary_kernel<FloatDtypes<&kOp>, portable::Div>(context, kOp, self, other, nullptr, out);
  return out;
}

// div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Tensor& out) {
  binary_scalar_kernel<FloatDtypes<&kScalarOp>, portable::Div>(context, kScalarOp, self, other,
                                                               nullptr, out);
  return out;
}

}  // namespace optimized
