#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::unsqueeze_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& unsqueeze_copy_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim_arg,
                               rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int dim = self.dim();
  if (dim >= rt::Tensor::kMaxDims) {
    in.fail("self has too many dims");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, dim + 1, false);
  if (at < 0) return out;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0, s = 0; d <= dim; ++d) {
    sizes[d] = d == at ? 1 : self.size(s);
    strides[d] = d == at ? 0 : self.stride(s);
    s += d != at;
  }
  if (!resize_out(in, out, sizes, dim + 1)) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

}  // namespace portable
