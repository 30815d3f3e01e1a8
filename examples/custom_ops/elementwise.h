#pragma once

// What my_ops' elementwise kernels check before they write: an out of the input's dtype,
// shape and dim order. The kernels then walk both tensors in memory order, which is right
// for any dim order the two share (the runtime's tensors are dense: their strides follow
// from sizes and dim order).

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"

namespace my_ops {

// False after failing `context` (naming `op`) when out cannot hold op(input).
inline bool prepare_out(rt::KernelContext& context, const char* op, const rt::Tensor& input,
                        rt::Tensor& out) {
  if (out.dtype() != input.dtype()) {
    context.fail(rt::Error::InvalidArgument, op, "out must have the dtype of input");
    return false;
  }
  bool same_shape = input.dim() == out.dim();
  for (int d = 0; same_shape && d < input.dim(); ++d) same_shape = input.size(d) == out.size(d);
  // An out of symbolic shape takes the input's; a static one must already have it.
  if (!same_shape && !out.resize(input.sizes().data(), input.dim()).ok()) {
    context.fail(rt::Error::InvalidArgument, op, "out cannot take the shape of input");
    return false;
  }
  for (int d = 0; d < input.dim(); ++d) {
    if (input.dim_order()[d] != out.dim_order()[d]) {
      context.fail(rt::Error::InvalidArgument, op, "input and out must have the same dim order");
      return false;
    }
  }
  return true;
}

}  // namespace my_ops
