#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::pow.Tensor_Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::pow.Tensor_Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

constexpr const char* kScalarBaseOp = "aten::pow.Scalar_out";
using ScalarBaseDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarBaseOp).bits(),
                                           rt::selected_dtypes(kScalarBaseOp).bits()>;

// std::pow for floating point; integers by squaring (see op_pow).
struct Pow {
  static constexpr bool kHasScalar = false;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  template <typename M>
  static M apply(M x, M y, M) {
    return op_pow(x, y);
  }
  static const char* check(ScalarType common, const rt::Scalar&) {
    return common == ScalarType::Bool ? "pow of bool tensors is not supported" : nullptr;
  }
};

// A scalar base raised to each element of the exponent tensor, with the
// tensor-tensor rule (binary_scalar_op passes the tensor first).
struct PowScalarBase {
  static constexpr bool kHasScalar = false;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  template <typename M>
  static M apply(M exponent, M base, M) {
    return op_pow(base, exponent);
  }
  static const char* check(ScalarType common, const rt::Scalar&) {
    return common == ScalarType::Bool ? "pow of bool tensors is not supported" : nullptr;
  }
};

}  // namespace

// pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& pow_Tensor_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                                  const rt::Tensor& exponent, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  BinaryCall call;
  call.a = &self;
  call.b = &exponent;
  call.out = &out;
  binary_op<Dtypes, Pow>(in, call);
  return out;
}

// pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& pow_Tensor_Scalar_out(rt::KernelContext& context, const rt::Tensor& self,
                                  rt::Scalar exponent, rt::Tensor& out) {
  const rt::OpContext in(context, kScalarOp);
  BinaryCall call;
  call.a = &self;
  call.out = &out;
  if (rt::is_integral_type(call.a->dtype(), true) && !exponent.is_floating() &&
      exponent.to<int64_t>() < 0) {
    in.fail("integers to negative integer powers are not allowed");
    return out;
  }
  binary_scalar_op<ScalarDtypes, PowScalar>(in, call, exponent);
  return out;
}

// pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& pow_Scalar_out(rt::KernelContext& context, rt::Scalar self, const rt::Tensor& exponent,
                           rt::Tensor& out) {
  const rt::OpContext in(context, kScalarBaseOp);
  BinaryCall call;
  call.a = &exponent;
  call.out = &out;
  binary_scalar_op<ScalarBaseDtypes, PowScalarBase>(in, call, self);
  return out;
}

}  // namespace portable
