#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/complex_parts.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::view_as_real_copy.out";
constexpr rt::DtypeSet kComplex = kernels::declared_dtypes(kOp);

}  // namespace

// view_as_real_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// out[..., 0] = real parts, out[..., 1] = imaginary parts, in the parts' dtype.
rt::Tensor& view_as_real_copy_out(rt::KernelContext& context, const rt::Tensor& self,
                                  rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!context.check_dtype(kOp, self.dtype(), kComplex.bits(),
                           (kComplex & rt::selected_dtypes(kOp)).bits())) {
    return out;
  }
  if (out.dtype() != complex_part_type(self.dtype())) {
    in.fail("out must have the dtype of self's real parts");
    return out;
  }
  if (self.dim() >= rt::Tensor::kMaxDims) {
    in.fail("self has too many dims for one more");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) sizes[d] = self.size(d);
  sizes[self.dim()] = 2;
  if (!resize_out(in, out, sizes, self.dim() + 1) || out.numel() == 0) return out;
  int64_t strides[rt::Tensor::kMaxDims] = {};  // one 0 entry serves a 0-dim self
  for (int d = 0; d < self.dim(); ++d) strides[d] = out.stride(d);
  copy_complex(self, static_cast<uint8_t*>(out.data()), strides, out.stride(self.dim()), false);
  return out;
}

}  // namespace portable
