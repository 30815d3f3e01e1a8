#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_index.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::index_select.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& index_select_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim_arg,
                             const rt::Tensor& index, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out) || !shape_check_index_dtype(in, index)) return out;
  if (index.dim() > 1) {
    in.fail("index must have at most 1 dim");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim());
  if (at < 0) return out;
  const int dim = self.dim();
  const int64_t extent = dim == 0 ? 1 : self.size(static_cast<int>(at));
  if (dim == 0 && index.numel() != 1) {
    in.fail("index of a 0-dim self must have one element");
    return out;
  }
  // Each index copies one size-1 slab of self into out.
  int32_t sizes[rt::Tensor::kMaxDims];
  int32_t slab[rt::Tensor::kMaxDims];
  int64_t self_strides[rt::Tensor::kMaxDims];
  int64_t out_strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < dim; ++d) {
    sizes[d] = d == at ? static_cast<int32_t>(index.numel()) : self.size(d);
    slab[d] = d == at ? 1 : self.size(d);
    self_strides[d] = self.stride(d);
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  shape_strides(out, out_strides);
  const int64_t element = static_cast<int64_t>(out.element_size());
  const int64_t self_step = dim == 0 ? 0 : self.stride(static_cast<int>(at));
  const int64_t out_step = dim == 0 ? 0 : out.stride(static_cast<int>(at));
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t k = shape_index_at(in, index, i, extent);
    if (k < 0) return out;
    copy_strided(slab, dim, static_cast<size_t>(element),
                 static_cast<uint8_t*>(out.data()) + i * out_step * element, out_strides,
                 static_cast<const uint8_t*>(self.data()) + k * self_step * element, self_strides);
  }
  return out;
}

}  // namespace portable
