#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::bitwise_and.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::bitwise_and.Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

// self & other on integers and bools (a float scalar promotes to Float,
// which is not supported).
struct BitwiseAnd {
  static constexpr bool kHasScalar = false;
  template <typename M>
  static M apply(M x, M y, M) {
    return static_cast<M>(x & y);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_and_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                                   const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, BitwiseAnd>(context, kOp, self, other, out);
  return out;
}

// bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_and_Scalar_out(rt::KernelContext& context, const rt::Tensor& self,
                                   rt::Scalar other, rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, BitwiseAnd>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
