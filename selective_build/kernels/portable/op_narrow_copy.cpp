#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::narrow_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *, Tensor(a!) out) -> Tensor(a!)
// out = entries start .. start + length - 1 of self's dim (a negative start counts from
// the end, as torch.narrow's does).
rt::Tensor& narrow_copy_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim_arg,
                            int64_t start, int64_t length, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (self.dim() == 0) {
    in.fail("self must have at least 1 dim");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim(), false);
  if (at < 0) return out;
  const int d_at = static_cast<int>(at);
  const int64_t extent = self.size(d_at);
  if (start < 0 && start >= -extent) start += extent;
  if (start < 0 || start > extent || length < 0 || length > extent - start) {
    in.fail("start and length must lie within self's size in dim");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) {
    sizes[d] = self.size(d);
    strides[d] = self.stride(d);
  }
  sizes[d_at] = static_cast<int32_t>(length);
  if (!resize_out(in, out, sizes, self.dim())) return out;
  if (out.numel() == 0) return out;
  copy_view(out, self.data(), start * self.stride(d_at), strides);
  return out;
}

}  // namespace portable
