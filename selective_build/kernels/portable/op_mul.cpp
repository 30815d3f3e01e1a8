#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::mul.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

constexpr const char* kScalarOp = "aten::mul.Scalar_out";
constexpr rt::DtypeSet kScalarSelected = rt::selected_dtypes(kScalarOp);
using ScalarDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(), kScalarSelected.bits()>;

}  // namespace

// mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mul_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, Mul>(context, kOp, self, other, out);
  return out;
}

// mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mul_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, Mul>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
