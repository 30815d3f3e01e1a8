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

constexpr const char* kOp = "aten::add.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

constexpr const char* kScalarOp = "aten::add.Scalar_out";
constexpr rt::DtypeSet kScalarSelected = rt::selected_dtypes(kScalarOp);
using ScalarDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(), kScalarSelected.bits()>;

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
