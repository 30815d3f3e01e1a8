#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_hard.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::hardswish.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// hardswish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// One vector loop with portable's operations in portable's order (clamp_vec compares as
// std::max and std::min do, NaN included; a division by 6), so both give the same bits.
rt::Tensor& hardswish_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  unary_kernel<Dtypes>(
      in, self, out, [](Vec x) { return x * clamp_vec(x + 3.0f, 0.0f, 6.0f) / 6.0f; },
      [&] {
        portable::unary_kernel<Dtypes, Dtypes, portable::Hardswish>(context, kOp, self, out, false);
      });
  return out;
}

}  // namespace optimized
