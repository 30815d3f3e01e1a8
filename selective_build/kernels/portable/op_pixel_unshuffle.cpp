#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_pixel.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::pixel_unshuffle.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out) -> Tensor(a!)
// (*, C, H*r, W*r) -> (*, C*r*r, H, W), the inverse of pixel_shuffle.
rt::Tensor& pixel_unshuffle_out(rt::KernelContext& context, const rt::Tensor& self,
                                int64_t downscale_factor, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out) || !pixel_check(in, self, downscale_factor))
    return out;
  const int64_t r = downscale_factor;
  const int c = self.dim() - 3;
  if (self.size(c + 1) % r != 0 || self.size(c + 2) % r != 0) {
    in.fail("self's height and width must be divisible by downscale_factor");
    return out;
  }
  if (self.size(c) * r * r > INT32_MAX) {
    in.fail("the result is too large");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < c; ++d) sizes[d] = self.size(d);
  sizes[c] = static_cast<int32_t>(self.size(c) * r * r);
  sizes[c + 1] = static_cast<int32_t>(self.size(c + 1) / r);
  sizes[c + 2] = static_cast<int32_t>(self.size(c + 2) / r);
  if (!resize_out(in, out, sizes, self.dim())) return out;
  pixel_move(out, self, r, false);
  return out;
}

}  // namespace portable
