#include <cstdint>

#include "kernels/common/view_sizes.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// executorch_prim::et_view.default(Tensor self, SymInt[] size) -> Tensor: out
// becomes a view of self's memory with the sizes `size` (one may be -1, inferred as
// torch does).
rt::Tensor& et_view_default(rt::KernelContext& context, const rt::Tensor& self, rt::IntList size,
                            rt::Tensor& out) {
  const rt::OpContext in(context, "executorch_prim::et_view.default");
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  if (!self.is_contiguous() || !out.is_contiguous()) {
    in.fail("self and out must be contiguous");
    return out;
  }
  if (size.size() != static_cast<size_t>(out.dim())) {
    in.fail("size must have out's number of dims");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  if (!kernels::view_sizes(in, size, self.numel(), sizes)) return out;
  if (!rt::resize_out(in, out, sizes, out.dim())) return out;
  out.set_data(self.data());
  return out;
}

}  // namespace prim
