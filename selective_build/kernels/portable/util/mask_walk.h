#pragma once

#include <cstdint>

#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// masked_select and masked_scatter: self and a bool mask broadcast together.
// The broadcast shape goes to sizes/dim; false after failing the context.
inline bool mask_broadcast(const rt::OpContext& in, const rt::Tensor& self, const rt::Tensor& mask,
                           int32_t* sizes, int* dim) {
  if (mask.dtype() != rt::ScalarType::Bool) {
    in.fail("mask must be a bool tensor");
    return false;
  }
  if (!broadcast_shape(self, mask, sizes, dim)) {
    in.fail("self and mask cannot be broadcast together");
    return false;
  }
  return true;
}

// Calls fn(self_offset, mask_true) for every element of the broadcast shape
// in row-major order, with self's element offset (operands broadcast).
template <typename Fn>
void mask_walk(const int32_t* sizes, int dim, const rt::Tensor& self, const rt::Tensor& mask,
               Fn&& fn) {
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 0) return;
  }
  StridedWalk<2> walk;
  walk.init(sizes, dim);
  walk.set_operand(0, self);
  walk.set_operand(1, mask);
  const bool* flags = mask.data_as<const bool>();
  const int64_t n = walk.row_size(), ss = walk.row_stride(0), sm = walk.row_stride(1);
  do {
    for (int64_t i = 0; i < n; ++i) fn(walk.offset(0) + i * ss, flags[walk.offset(1) + i * sm]);
  } while (walk.next_row());
}

}  // namespace portable
