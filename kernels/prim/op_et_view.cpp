#include <cstdint>

#include "kernels/common/view_sizes.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// executorch_prim::et_view.default(Tensor self, SymInt[] size) -> Tensor: out
// becomes a view of self's memory with the sizes `size` (one may be -1, inferred as
// torch does).
void et_view_default(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, "executorch_prim::et_view.default", args, 3);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::IntListArg size = in.int_list(1, "size");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok()) return;
  if (out->dtype() != self->dtype()) return in.fail("out must have self's dtype");
  if (!self->is_contiguous() || !out->is_contiguous()) return in.fail("self and out must be contiguous");
  if (size.size() != static_cast<size_t>(out->dim())) return in.fail("size must have out's number of dims");
  int32_t sizes[rt::Tensor::kMaxDims];
  if (!kernels::view_sizes(in, size, self->numel(), sizes)) return;
  if (!rt::resize_out(in, *out, sizes, out->dim())) return;
  out->set_data(self->data());
}

}  // namespace prim
