#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::le.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::le.Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

// self <= other in the promoted dtype (a scalar is converted to it first);
// bool results, stored into out of any dtype.
struct LessEqual {
  static constexpr bool kHasScalar = false;
  static constexpr BinaryKind kKind = BinaryKind::kComparison;
  template <typename M>
  static bool apply(M x, M y, M) {
    return x <= y;
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& le_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                          const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, LessEqual>(context, kOp, self, other, out);
  return out;
}

// le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& le_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                          rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, LessEqual>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
