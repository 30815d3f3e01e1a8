#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::rsub.Scalar_out";
// No bool, as ExecuTorch's portable rsub (and torch, which has no bool
// subtraction).
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

struct Rsub {
  static constexpr bool kHasScalar = true;
  static constexpr bool kOpmathScalar = true;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  // other - alpha * self (x is self, y the scalar other).
  template <typename M>
  static M apply(M x, M y, M alpha) {
    return op_sub(y, op_mul(alpha, x));
  }
  static const char* validate(const BinaryCall& call) {
    return call.other->is_bool() ? "subtraction with bool operands is not supported" : nullptr;
  }
  static const char* check(ScalarType common, rt::Scalar alpha) {
    if (alpha.is_bool()) return "alpha must not be bool";
    if (alpha.is_floating() && !rt::is_floating_type(common))
      return "alpha must be an integer for integer tensors";
    return nullptr;
  }
};

}  // namespace

// rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& rsub_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                            rt::Scalar alpha, rt::Tensor& out) {
  binary_scalar_alpha_kernel<Dtypes, Rsub>(context, kOp, self, other, alpha, out);
  return out;
}

}  // namespace portable
