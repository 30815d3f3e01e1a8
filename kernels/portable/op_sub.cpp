#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::sub.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

constexpr const char* kScalarOp = "aten::sub.Scalar_out";
constexpr rt::DtypeSet kScalarSelected = rt::selected_dtypes(kScalarOp);
using ScalarDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(), kScalarSelected.bits()>;

struct Sub {
  static constexpr bool kHasScalar = true;
  static constexpr bool kOpmathScalar = true;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  // self - alpha * other
  template <typename M>
  static M apply(M x, M y, M alpha) {
    return op_sub(x, op_mul(alpha, y));
  }
  // torch has no bool subtraction (it points to logical_xor and logical_not).
  static const char* validate(const BinaryCall& call) {
    const bool bool_other =
        call.b_is_scalar ? call.other->is_bool() : call.b->dtype() == ScalarType::Bool;
    return call.a->dtype() == ScalarType::Bool || bool_other
               ? "subtraction with bool operands is not supported"
               : nullptr;
  }
  static const char* check(ScalarType common, rt::Scalar alpha) {
    if (alpha.is_bool()) return "a bool alpha needs bool tensors";
    if (alpha.is_floating() && !rt::is_floating_type(common))
      return "alpha must be an integer for integer tensors";
    return nullptr;
  }
};

}  // namespace

// sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sub_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Scalar alpha, rt::Tensor& out) {
  binary_alpha_kernel<Dtypes, Sub>(context, kOp, self, other, alpha, out);
  return out;
}

// sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sub_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Scalar alpha, rt::Tensor& out) {
  binary_scalar_alpha_kernel<ScalarDtypes, Sub>(context, kScalarOp, self, other, alpha, out);
  return out;
}

}  // namespace portable
