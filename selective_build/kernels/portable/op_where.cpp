#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/where.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::where.self_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
constexpr uint32_t kConditionBits = kernels::declared_dtypes(kOp, "condition").bits();

}  // namespace

// where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& where_self_out(rt::KernelContext& context, const rt::Tensor& condition,
                           const rt::Tensor& self, const rt::Tensor& other, rt::Tensor& out) {
  where_kernel<Dtypes, kConditionBits>(context, kOp, condition, self, other, out);
  return out;
}

}  // namespace portable
