#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::select_copy.int_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// select_copy.int_out(Tensor self, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& select_copy_int_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim_arg,
                                int64_t index, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (self.dim() == 0) {
    in.fail("select cannot be applied to a 0-dim tensor");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim());
  if (at < 0) return out;
  const int64_t extent = self.size(static_cast<int>(at));
  if (index < 0) index += extent;
  if (index < 0 || index >= extent) {
    in.fail("index is out of range");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0, o = 0; d < self.dim(); ++d) {
    if (d == at) continue;
    sizes[o] = self.size(d);
    strides[o++] = self.stride(d);
  }
  if (!resize_out(in, out, sizes, self.dim() - 1)) return out;
  copy_view(out, self.data(), index * self.stride(static_cast<int>(at)), strides);
  return out;
}

}  // namespace portable
