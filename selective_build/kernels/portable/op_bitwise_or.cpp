#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::bitwise_or.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::bitwise_or.Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

// self | other on integers and bools (a float scalar promotes to Float,
// which is not supported).
struct BitwiseOr {
  static constexpr bool kHasScalar = false;
  template <typename M>
  static M apply(M x, M y, M) {
    return static_cast<M>(x | y);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_or_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                                  const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, BitwiseOr>(context, kOp, self, other, out);
  return out;
}

// bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_or_Scalar_out(rt::KernelContext& context, const rt::Tensor& self,
                                  rt::Scalar other, rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, BitwiseOr>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
