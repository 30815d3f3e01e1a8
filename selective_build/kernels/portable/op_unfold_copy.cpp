#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::unfold_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// unfold_copy.out(Tensor self, int dimension, int size, int step, *, Tensor(a!) out) -> Tensor(a!)
// Every window of `size` entries of self's `dimension`, `step` apart: that dim becomes
// the window count, and a last dim of `size` walks inside a window. A 0-dim self is one
// entry: size 0 or 1.
rt::Tensor& unfold_copy_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dimension,
                            int64_t size, int64_t step, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int64_t at = shape_wrap_dim(in, dimension, self.dim());
  if (at < 0) return out;
  if (self.dim() == rt::Tensor::kMaxDims) {
    in.fail("self has too many dims");
    return out;
  }
  const int d_at = static_cast<int>(at);
  const int64_t extent = self.dim() == 0 ? 1 : self.size(d_at);
  if (size < 0 || size > extent) {
    in.fail("size must lie between 0 and self's size in dimension");
    return out;
  }
  if (step <= 0) {
    in.fail("step must be positive");
    return out;
  }
  step = shape_bound_step(step, extent);  // Note [A step past the extent]
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) {
    sizes[d] = self.size(d);
    strides[d] = self.stride(d);
  }
  const int64_t inner = self.dim() == 0 ? 1 : self.stride(d_at);
  if (self.dim() > 0) {
    sizes[d_at] = static_cast<int32_t>((extent - size) / step + 1);
    strides[d_at] = step * inner;
  }
  const int dim = self.dim() == 0 ? 1 : self.dim() + 1;
  sizes[dim - 1] = static_cast<int32_t>(size);
  strides[dim - 1] = inner;
  if (!resize_out(in, out, sizes, dim)) return out;
  if (out.numel() == 0) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

}  // namespace portable
