#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_matmul.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::mm.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mm_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& mat2,
                   rt::Tensor& out) {
  matmul_kernel<Dtypes>(context, kOp, self, mat2, out, 2);
  return out;
}

}  // namespace portable
