#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::unbind_copy.int_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ()
// out[i] = self's entry i of dim, without that dim: one out tensor per entry.
void unbind_copy_int_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim_arg,
                         rt::TensorList out_list) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return;
  if (self.dim() == 0) return in.fail("self must have at least 1 dim");
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim(), false);
  if (at < 0) return;
  const int d_at = static_cast<int>(at);
  const rt::BoxedList outs = out_list.boxed();
  if (static_cast<int64_t>(outs.size) != self.size(d_at))
    return in.fail("out must have one tensor per entry of dim");
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  int dim = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if (d == d_at) continue;
    sizes[dim] = self.size(d);
    strides[dim++] = self.stride(d);
  }
  for (uint32_t i = 0; i < outs.size; ++i) {
    rt::Tensor& out = outs.items[i]->to_tensor();
    if (out.dtype() != self.dtype()) return in.fail("out tensors must have self's dtype");
    if (!resize_out(in, out, sizes, dim)) return;
    if (out.numel() > 0)
      copy_view(out, self.data(), static_cast<int64_t>(i) * self.stride(d_at), strides);
  }
}

}  // namespace portable
