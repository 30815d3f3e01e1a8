#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::diagonal_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// diagonal_copy.out(Tensor self, int offset=0, int dim1=0, int dim2=1, *, Tensor(a!) out) -> Tensor(a!)
// out has self's dims other than dim1 and dim2, then the diagonal: element k of it is
// self[..., k + max(0, -offset) in dim1, k + max(0, offset) in dim2, ...].
rt::Tensor& diagonal_copy_out(rt::KernelContext& context, const rt::Tensor& self, int64_t offset,
                              int64_t dim1_arg, int64_t dim2_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (self.dim() < 2) {
    in.fail("self must have at least 2 dims");
    return out;
  }
  const int64_t d1 = shape_wrap_dim(in, dim1_arg, self.dim());
  if (d1 < 0) return out;
  const int64_t d2 = shape_wrap_dim(in, dim2_arg, self.dim());
  if (d2 < 0) return out;
  if (d1 == d2) {
    in.fail("dim1 and dim2 must differ");
    return out;
  }
  const int a = static_cast<int>(d1), b = static_cast<int>(d2);
  // Offsets outside the matrix give an empty diagonal (checked before negating, so even
  // INT64_MIN cannot overflow).
  int64_t row = 0, column = 0, length = 0;
  if (offset > -self.size(a) && offset < self.size(b)) {
    row = offset < 0 ? -offset : 0;
    column = offset > 0 ? offset : 0;
    const int64_t rows = self.size(a) - row, columns = self.size(b) - column;
    length = rows < columns ? rows : columns;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  int dim = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if (d == a || d == b) continue;
    sizes[dim] = self.size(d);
    strides[dim++] = self.stride(d);
  }
  sizes[dim] = static_cast<int32_t>(length);
  strides[dim++] = self.stride(a) + self.stride(b);
  if (!resize_out(in, out, sizes, dim)) return out;
  if (out.numel() == 0) return out;
  copy_view(out, self.data(), row * self.stride(a) + column * self.stride(b), strides);
  return out;
}

}  // namespace portable
