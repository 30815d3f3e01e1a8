#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::add.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

constexpr const char* kScalarOp = "aten::add.Scalar_out";
constexpr rt::DtypeSet kScalarSelected = rt::selected_dtypes(kScalarOp);
using ScalarDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(), kScalarSelected.bits()>;

struct Add {
  static constexpr bool kHasScalar = true;
  static constexpr bool kOpmathScalar = true;
  // self + alpha * other
  template <typename M>
  static M apply(M x, M y, M alpha) {
    return op_add(x, op_mul(alpha, y));
  }
  // torch's rules for alpha, judged on the compute dtype.
  static const char* check(ScalarType common, rt::Scalar alpha) {
    if (alpha.is_bool() && common != ScalarType::Bool) return "a bool alpha needs bool tensors";
    if (alpha.is_floating() && !rt::is_floating_type(common))
      return "alpha must be an integer for integer tensors";
    return nullptr;
  }
};

}  // namespace

// add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& add_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Scalar alpha, rt::Tensor& out) {
  binary_alpha_kernel<Dtypes, Add>(context, kOp, self, other, alpha, out);
  return out;
}

// add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& add_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Scalar alpha, rt::Tensor& out) {
  binary_scalar_alpha_kernel<ScalarDtypes, Add>(context, kScalarOp, self, other, alpha, out);
  return out;
}

}  // namespace portable
