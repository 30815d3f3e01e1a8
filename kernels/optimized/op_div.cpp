#include "kernels/optimized/elem/binary.h"
#include "kernels/optimized/elem/dtypes.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::div.out";
constexpr const char* kScalarOp = "aten::div.Scalar_out";

struct Div {
  static constexpr bool kHasScalar = false;
  static constexpr bool kOpmathScalar = true;
  static constexpr portable::BinaryKind kKind = portable::BinaryKind::kTrueDivision;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kFloatingDtypes;
  // True division (x * (1 / y) would round differently).
  template <typename M>
  static M apply(M x, M y, M) {
    return x / y;
  }
  static const char* check(rt::ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Tensor& out) {
  binary_kernel<FloatDtypes<&kOp>, Div>(context, kOp, self, other, nullptr, out);
  return out;
}

// div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Tensor& out) {
  binary_scalar_kernel<FloatDtypes<&kScalarOp>, Div>(context, kScalarOp, self, other, nullptr, out);
  return out;
}

}  // namespace optimized
