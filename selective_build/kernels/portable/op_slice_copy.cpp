#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::slice_copy.Tensor_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *,
//                       Tensor(a!) out) -> Tensor(a!)
rt::Tensor& slice_copy_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                                  int64_t dim_arg, rt::Optional<int64_t> start_arg,
                                  rt::Optional<int64_t> end_arg, int64_t step, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  int64_t start = start_arg.value_or(0), end = end_arg.value_or(INT64_MAX);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (self.dim() == 0) {
    in.fail("slice cannot be applied to a 0-dim tensor");
    return out;
  }
  if (step <= 0) {
    in.fail("step must be positive");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim());
  if (at < 0) return out;
  const int64_t extent = self.size(static_cast<int>(at));
  start = shape_clamp_bound(start, extent);
  end = shape_clamp_bound(end, extent);
  step = shape_bound_step(step, extent);  // Note [A step past the extent]
  const int64_t length = end > start ? (end - start + step - 1) / step : 0;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) {
    sizes[d] = d == at ? static_cast<int32_t>(length) : self.size(d);
    strides[d] = self.stride(d) * (d == at ? step : 1);
  }
  if (!resize_out(in, out, sizes, self.dim())) return out;
  copy_view(out, self.data(), start * self.stride(static_cast<int>(at)), strides);
  return out;
}

}  // namespace portable
