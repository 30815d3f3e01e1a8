#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::squeeze_copy.dims_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
constexpr const char* kDimOp = "aten::squeeze_copy.dim_out";
using DimDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kDimOp).bits(), rt::selected_dtypes(kDimOp).bits()>;

}  // namespace

// squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& squeeze_copy_dims_out(rt::KernelContext& context, const rt::Tensor& self,
                                  rt::IntList dims, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  uint32_t squeezed = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = shape_wrap_dim(in, dims[i], self.dim());
    if (d < 0) return out;
    if (self.dim() > 0 && self.size(static_cast<int>(d)) == 1) squeezed |= 1u << d;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  int dim = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if ((squeezed >> d & 1u) != 0) continue;
    sizes[dim] = self.size(d);
    strides[dim++] = self.stride(d);
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

// squeeze_copy.dim_out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)
// self without `dim` when its size is 1; else self unchanged.
rt::Tensor& squeeze_copy_dim_out(rt::KernelContext& context, const rt::Tensor& self,
                                 int64_t dim_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kDimOp);
  if (!shape_same_dtype<DimDtypes>(in, self, out)) return out;
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim());
  if (at < 0) return out;
  const bool squeezed = self.dim() > 0 && self.size(static_cast<int>(at)) == 1;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  int dim = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if (squeezed && d == at) continue;
    sizes[dim] = self.size(d);
    strides[dim++] = self.stride(d);
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

}  // namespace portable
