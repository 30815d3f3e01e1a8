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

constexpr const char* kOp = "aten::pixel_shuffle.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out) -> Tensor(a!)
// (*, C*r*r, H, W) -> (*, C, H*r, W*r): out[..., c, h*r + i, w*r + j] =
// self[..., c*r*r + i*r + j, h, w].
rt::Tensor& pixel_shuffle_out(rt::KernelContext& context, const rt::Tensor& self,
                              int64_t upscale_factor, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out) || !pixel_check(in, self, upscale_factor))
    return out;
  const int64_t r = upscale_factor;
  const int c = self.dim() - 3;
  if (self.size(c) % (r * r) != 0) {
    in.fail("self's channels must be divisible by upscale_factor squared");
    return out;
  }
  if (self.size(c + 1) * r > INT32_MAX || self.size(c + 2) * r > INT32_MAX) {
    in.fail("the result is too large");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < c; ++d) sizes[d] = self.size(d);
  sizes[c] = static_cast<int32_t>(self.size(c) / (r * r));
  sizes[c + 1] = static_cast<int32_t>(self.size(c + 1) * r);
  sizes[c + 2] = static_cast<int32_t>(self.size(c + 2) * r);
  if (!resize_out(in, out, sizes, self.dim())) return out;
  pixel_move(self, out, r, true);
  return out;
}

}  // namespace portable
