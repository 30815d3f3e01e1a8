#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/optimized/elem/vmath.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::neg.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// RoPE's rotate-half negates half of every head: a sign flip a vector at a time.
rt::Tensor& neg_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  unary_kernel<Dtypes>(
      in, self, out, [](Vec x) { return -x; },
      [&] {
        portable::unary_kernel<Dtypes, Dtypes, portable::Neg>(context, kOp, self, out, false);
      });
  return out;
}

}  // namespace optimized
