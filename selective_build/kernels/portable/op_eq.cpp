#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::eq.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::eq.Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

}  // namespace

// eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& eq_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                          const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, Equal>(context, kOp, self, other, out);
  return out;
}

// eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& eq_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                          rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, Equal>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
