#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::logical_not.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
using Compute =
    rt::DtypeDispatch<(kernels::declared_dtypes(kOp) & rt::DtypeSet::of(ScalarType::Bool)).bits(),
                      rt::selected_dtypes(kOp).bits()>;

}  // namespace

// logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& logical_not_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  unary_map<Dtypes, Compute, LogicalNot>(in, self, out, ScalarType::Bool, LogicalNot());
  return out;
}

}  // namespace portable
