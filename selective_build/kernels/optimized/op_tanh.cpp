#include <cmath>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::tanh.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& tanh_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  unary_kernel<Dtypes, VecWide>(
      in, self, out, [](VecWide x) { return tanh_approx(x); },
      [&] {
        portable::unary_kernel<Dtypes, Dtypes, portable::Tanh>(context, kOp, self, out, true);
      });
  return out;
}

}  // namespace optimized
