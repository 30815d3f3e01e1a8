#include <cstdint>
#include <cstring>

#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// executorch_prim::et_copy_index.tensor(Tensor(a!) copy_to, Tensor copy_from, int index): copy_to[index] =
// copy_from, growing copy_to's dim 0 to index + 1 (the stacking of a loop's results).
void et_copy_index_tensor(rt::KernelContext& context, rt::Tensor& copy_to,
                          const rt::Tensor& copy_from, int64_t index) {
  const rt::OpContext in(context, "executorch_prim::et_copy_index.tensor");
  if (copy_to.dtype() != copy_from.dtype())
    return in.fail("copy_to and copy_from must have the same dtype");
  if (copy_to.dim() != copy_from.dim() + 1 || !copy_to.is_contiguous() ||
      !copy_from.is_contiguous()) {
    return in.fail("copy_to must be contiguous with one dim more than copy_from");
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  bool same = true;
  for (int d = 0; d < copy_from.dim(); ++d) {
    same = same && copy_to.size(d + 1) == copy_from.size(d);
    sizes[d + 1] = copy_from.size(d);
  }
  if (!same) return in.fail("copy_to's trailing sizes must be copy_from's");
  if (index < 0 || index >= INT32_MAX) return in.fail("index is out of range");
  sizes[0] = static_cast<int32_t>(index + 1);
  if (!rt::resize_out(in, copy_to, sizes, copy_to.dim())) return;
  const size_t bytes = copy_from.nbytes();
  if (bytes > 0)
    memcpy(static_cast<uint8_t*>(copy_to.data()) + static_cast<size_t>(index) * bytes,
           copy_from.data(), bytes);
}

}  // namespace prim
