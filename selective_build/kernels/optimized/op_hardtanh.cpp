#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/unary.h"
#include "kernels/portable/util/unary_clamp.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::hardtanh.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)
// relu6 is hardtanh(0, 6).
rt::Tensor& hardtanh_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar min_val,
                         rt::Scalar max_val, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const float lo = min_val.to<float>();
  const float hi = max_val.to<float>();
  unary_kernel<Dtypes>(
      in, self, out, [lo, hi](Vec x) { return clamp_vec(x, lo, hi); },
      [&] {
        const portable::UnaryClamp clamp{min_val, max_val, true, true};
        portable::unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), clamp);
      });
  return out;
}

}  // namespace optimized
