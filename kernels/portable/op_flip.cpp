#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::flip.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::DtypeSet::all().bits(), kSelected.bits()>;

}  // namespace

// flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)
void flip_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::IntListArg dims = in.int_list(1, "dims");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok() || !shape_same_dtype<Dtypes>(in, *self, *out)) return;
  uint32_t flipped = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = shape_wrap_dim(in, dims[i], self->dim());
    if (d < 0) return;
    if ((flipped >> d & 1u) != 0) return in.fail("dims must not repeat a dim");
    flipped |= 1u << d;
  }
  // A flipped dim is read backwards from its last element.
  int64_t strides[rt::Tensor::kMaxDims];
  int64_t base = 0;
  for (int d = 0; d < self->dim(); ++d) {
    const bool flip = (flipped >> d & 1u) != 0 && self->size(d) > 0;
    strides[d] = flip ? -self->stride(d) : self->stride(d);
    if (flip) base += (self->size(d) - 1) * self->stride(d);
  }
  if (!resize_out(in, *out, self->sizes().data(), self->dim())) return;
  copy_view(*out, self->data(), base, strides);
}

}  // namespace portable
