#pragma once

#include <cstdint>

#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// The rows of self and out (of equal sizes) along one dim, for ops that scan or normalise
// along it (cumsum, softmax): `walk` visits every position whose index along the dim is 0
// (operand 0: self, 1: out); from each, `n` elements at strides `self_stride`, `out_stride`.
struct DimRows {
  StridedWalk<2> walk;
  int64_t n;
  int64_t self_stride;
  int64_t out_stride;
};

// Checks `dim` (negative counts from the end; a 0-dim tensor is one element), resizes out to
// self's sizes and plans the rows. False when there is nothing to do: a failure (reported)
// or an empty out.
inline bool plan_dim_rows(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out,
                          int64_t dim, DimRows* rows) {
  const int rank = self.dim();
  const int dims = rank > 0 ? rank : 1;
  if (dim < 0) dim += dims;
  if (dim < 0 || dim >= dims) {
    in.fail("dim is out of range");
    return false;
  }
  if (!resize_out(in, out, self.sizes().data(), rank) || out.numel() == 0) return false;
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < rank; ++d) sizes[d] = d == dim ? 1 : self.size(d);
  rows->walk.init(sizes, rank);
  rows->walk.set_operand(0, self);
  rows->walk.set_operand(1, out);
  const int d = static_cast<int>(dim);
  rows->n = rank > 0 ? self.size(d) : 1;
  rows->self_stride = rank > 0 ? self.stride(d) : 0;
  rows->out_stride = rank > 0 ? out.stride(d) : 0;
  return true;
}

}  // namespace portable
