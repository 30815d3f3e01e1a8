#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::slice_scatter.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// slice_scatter.out(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *,
//     Tensor(a!) out) -> Tensor(a!)
// out = self with the slice start:end:step of dim replaced by src (self's shape with that
// dim the slice's length).
rt::Tensor& slice_scatter_out(rt::KernelContext& context, const rt::Tensor& self,
                              const rt::Tensor& src, int64_t dim_arg,
                              rt::Optional<int64_t> start_arg, rt::Optional<int64_t> end_arg,
                              int64_t step, rt::Tensor& out) {
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
  if (step <= 0) {
    in.fail("step must be positive");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim(), false);
  if (at < 0) return out;
  const int d_at = static_cast<int>(at);
  const int64_t extent = self.size(d_at);
  const int64_t start = shape_clamp_bound(start_arg.value_or(0), extent);
  const int64_t end = shape_clamp_bound(end_arg.value_or(INT64_MAX), extent);
  step = shape_bound_step(step, extent);  // Note [A step past the extent]
  const int64_t length = end > start ? (end - start + step - 1) / step : 0;
  bool same = src.dim() == self.dim();
  for (int d = 0; same && d < self.dim(); ++d)
    same = src.size(d) == (d == d_at ? length : self.size(d));
  if (!same) {
    in.fail("src must have self's shape with dim the slice's length");
    return out;
  }
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_same_shape(out, self);
  int64_t out_strides[rt::Tensor::kMaxDims], src_strides[rt::Tensor::kMaxDims];
  shape_strides(out, out_strides);
  shape_strides(src, src_strides);
  out_strides[d_at] *= step;
  copy_strided(src.sizes().data(), src.dim(), out.element_size(),
               static_cast<uint8_t*>(out.data()) +
                   start * out.stride(d_at) * static_cast<int64_t>(out.element_size()),
               out_strides, src.data(), src_strides);
  return out;
}

}  // namespace portable
