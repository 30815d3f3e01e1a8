#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::select_scatter.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// select_scatter.out(Tensor self, Tensor src, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!)
// out = self with entry `index` of `dim` replaced by src (self's shape without dim; a
// negative index counts from the end).
rt::Tensor& select_scatter_out(rt::KernelContext& context, const rt::Tensor& self,
                               const rt::Tensor& src, int64_t dim_arg, int64_t index,
                               rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (src.dtype() != self.dtype()) {
    in.fail("src must have self's dtype");
    return out;
  }
  if (self.dim() == 0) {
    in.fail("self must have at least 1 dim");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim(), false);
  if (at < 0) return out;
  const int d_at = static_cast<int>(at);
  const int64_t extent = self.size(d_at);
  if (index < 0) index += extent;
  if (index < 0 || index >= extent) {
    in.fail("index is out of range");
    return out;
  }
  bool same = src.dim() == self.dim() - 1;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t out_strides[rt::Tensor::kMaxDims], src_strides[rt::Tensor::kMaxDims];
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  for (int d = 0, s = 0; same && d < self.dim(); ++d) {
    if (d == d_at) continue;
    same = src.size(s) == self.size(d);
    sizes[s] = src.size(s);
    src_strides[s] = src.stride(s);
    out_strides[s++] = out.stride(d);
  }
  if (!same) {
    in.fail("src must have self's shape without dim");
    return out;
  }
  copy_same_shape(out, self);
  copy_strided(sizes, src.dim(), out.element_size(),
               static_cast<uint8_t*>(out.data()) +
                   index * out.stride(d_at) * static_cast<int64_t>(out.element_size()),
               out_strides, src.data(), src_strides);
  return out;
}

}  // namespace portable
