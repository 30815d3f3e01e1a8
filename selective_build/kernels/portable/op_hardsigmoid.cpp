#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_hard.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::hardsigmoid.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Floating point only: torch refuses integer tensors ("not implemented for 'Long'").
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// hardsigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// MobileNetV3's gate. ExecuTorch's portable library has no kernel for it (its exporter
// decomposes the op); a program keeps it with to_edge's preserve_ops.
rt::Tensor& hardsigmoid_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Hardsigmoid>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
