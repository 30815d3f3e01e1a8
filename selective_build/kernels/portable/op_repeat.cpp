#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::repeat.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& repeat_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList repeats,
                       rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int dim = static_cast<int>(repeats.size());
  if (dim < self.dim()) {
    in.fail("repeats must have at least as many entries as self has dims");
    return out;
  }
  if (dim > rt::Tensor::kMaxDims) {
    in.fail("repeats has too many entries");
    return out;
  }
  // self's shape aligned to the right of repeats, with leading size-1 dims.
  const int shift = dim - self.dim();
  int32_t block[rt::Tensor::kMaxDims];
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t self_strides[rt::Tensor::kMaxDims];
  int64_t out_strides[rt::Tensor::kMaxDims];
  int64_t tiles = 1;
  for (int d = 0; d < dim; ++d) {
    if (repeats[d] < 0) {
      in.fail("repeats must not be negative");
      return out;
    }
    block[d] = d >= shift ? self.size(d - shift) : 1;
    self_strides[d] = d >= shift ? self.stride(d - shift) : 0;
    const int64_t size = repeats[d] * block[d];
    if (size > INT32_MAX) {
      in.fail("the repeated size is too large");
      return out;
    }
    sizes[d] = static_cast<int32_t>(size);
    tiles *= repeats[d];
  }
  if (!resize_out(in, out, sizes, dim) || out.numel() == 0) return out;
  shape_strides(out, out_strides);
  const int64_t element = static_cast<int64_t>(out.element_size());
  // One copy of self per tile, tiles numbered in row-major order.
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t base = 0;
    int64_t rest = t;
    for (int d = dim - 1; d >= 0; --d) {
      base += rest % repeats[d] * block[d] * out_strides[d];
      rest /= repeats[d];
    }
    copy_strided(block, dim, out.element_size(), static_cast<uint8_t*>(out.data()) + base * element,
                 out_strides, self.data(), self_strides);
  }
  return out;
}

}  // namespace portable
