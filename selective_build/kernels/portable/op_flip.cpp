#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::flip.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& flip_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList dims,
                     rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  uint32_t flipped = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = shape_wrap_dim(in, dims[i], self.dim());
    if (d < 0) return out;
    if ((flipped >> d & 1u) != 0) {
      in.fail("dims must not repeat a dim");
      return out;
    }
    flipped |= 1u << d;
  }
  // A flipped dim is read backwards from its last element.
  int64_t strides[rt::Tensor::kMaxDims];
  int64_t base = 0;
  for (int d = 0; d < self.dim(); ++d) {
    const bool flip = (flipped >> d & 1u) != 0 && self.size(d) > 0;
    strides[d] = flip ? -self.stride(d) : self.stride(d);
    if (flip) base += (self.size(d) - 1) * self.stride(d);
  }
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_view(out, self.data(), base, strides);
  return out;
}

}  // namespace portable
