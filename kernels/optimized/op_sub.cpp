#include "kernels/optimized/elem/binary.h"
#include "kernels/optimized/elem/dtypes.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::sub.out";
constexpr const char* kScalarOp = "aten::sub.Scalar_out";

struct Sub {
  static constexpr bool kHasScalar = true;
  static constexpr bool kOpmathScalar = true;
  // self - alpha * other, as portable computes it for Float.
  template <typename M>
  static M apply(M x, M y, M alpha) {
    return x - alpha * y;
  }
  // torch has no bool subtraction; with Float tensors only a Scalar other can be bool.
  static const char* validate(const portable::BinaryCall& call) {
    return call.b_is_scalar && call.other->is_bool()
               ? "subtraction with bool operands is not supported"
               : nullptr;
  }
  static const char* check(rt::ScalarType, rt::Scalar alpha) {
    return alpha.is_bool() ? "a bool alpha needs bool tensors" : nullptr;
  }
};

}  // namespace

// sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sub_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Scalar alpha, rt::Tensor& out) {
  binary_kernel<FloatDtypes<&kOp>, Sub>(context, kOp, self, other, &alpha, out);
  return out;
}

// sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sub_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Scalar alpha, rt::Tensor& out) {
  binary_scalar_kernel<FloatDtypes<&kScalarOp>, Sub>(context, kScalarOp, self, other, &alpha, out);
  return out;
}

}  // namespace optimized
