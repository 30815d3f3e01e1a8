#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::neg.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// torch refuses to negate bool tensors.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& neg_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Neg>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
