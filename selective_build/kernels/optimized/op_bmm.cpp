#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/matmul.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::bmm.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bmm_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& mat2,
                    rt::Tensor& out) {
  opt::matmul_kernel<Dtypes>(context, kOp, self, mat2, out, 3);
  return out;
}

}  // namespace optimized
