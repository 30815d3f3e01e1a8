#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::transpose_copy.int_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& transpose_copy_int_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim0,
                                   int64_t dim1, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int64_t a = shape_wrap_dim(in, dim0, self.dim());
  const int64_t b = a < 0 ? -1 : shape_wrap_dim(in, dim1, self.dim());
  if (b < 0) return out;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) {
    const int s = d == a ? static_cast<int>(b) : d == b ? static_cast<int>(a) : d;
    sizes[d] = self.size(s);
    strides[d] = self.stride(s);
  }
  if (!resize_out(in, out, sizes, self.dim())) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

}  // namespace portable
