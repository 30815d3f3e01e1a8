#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/optimized/elem/layout.h"
#include "kernels/optimized/elem/permute.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {

// out = self (Float, same sizes) in out's dim order: out's memory, walked in its dim order,
// is a contiguous permute of self (Note [Permute as blocks]): a change between contiguous
// and channels last (Note [Channels last], runtime/executor/channels_last.h) is one 2-d
// transpose per image, 16 x 16 tiles.
inline void copy_into_layout(const rt::Tensor& self, rt::Tensor& out) {
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int k = 0; k < out.dim(); ++k) {
    const int d = out.dim_order()[k];
    sizes[k] = out.size(d);
    strides[k] = self.stride(d);
  }
  permute_blocks(simplify_permute(sizes, strides, out.dim()), self.data_as<const float>(),
                 out.data_as<float>());
}

// The kernel of _clone_dim_order.out and _to_dim_order_copy.out on Float (`Dtypes` their
// entry's): `name`(Tensor self, *, bool non_blocking=False, int[]? dim_order=None,
// Tensor(a!) out). portable's checks; one memcpy when out keeps self's layout (the
// exporter's clone before a view), copy_into_layout when it changes the dim order.
template <typename Dtypes>
void dim_order_copy(const rt::OpContext& in, const rt::Tensor& self,
                    rt::Optional<rt::IntList> dim_order, rt::Tensor& out) {
  if (!portable::shape_check_dim_order(in, dim_order, self, out) ||
      !portable::shape_same_dtype<Dtypes>(in, self, out) ||
      !rt::resize_out(in, out, self.sizes().data(), self.dim()) || out.numel() == 0) {
    return;
  }
  if (same_layout(self, out)) {
    memcpy(out.data(), self.data(), out.nbytes());
    return;
  }
  copy_into_layout(self, out);
}

}  // namespace optimized
