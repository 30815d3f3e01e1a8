#include <cmath>

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

constexpr const char* kOp = "aten::rsqrt.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// RMSNorm's 1 / sqrt(mean + eps): the square root and the division are the instructions'
// correctly rounded ones, a vector at a time, so the results are portable's to the bit.
rt::Tensor& rsqrt_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  unary_kernel<Dtypes>(
      in, self, out, [](Vec x) { return 1.0f / vsqrt(x); },
      [&] {
        portable::unary_kernel<Dtypes, Dtypes, portable::Rsqrt>(context, kOp, self, out, true);
      });
  return out;
}

}  // namespace optimized
