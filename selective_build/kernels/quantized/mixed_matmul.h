#pragma once

// What mixed_mm and mixed_linear share: float (or half) inputs times int8 weights scaled per
// row or group. ExecuTorch 1.5.1 (kernels/quantized/cpu/op_mixed_*.cpp, the loops in
// kernels/portable/cpu/vec_ops.h) accumulates in the out's dtype; we accumulate in float
// (double for a Double out) and round once, which differs for Half only, within its
// tolerance. Zero points are refused, as ExecuTorch does ("not supported yet").

#include <cstdint>

#include "runtime/core/half.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/dtype_set.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {

// False after failing `in` unless the shared arguments fit: a 2-D Float or Half input,
// 2-D Char weights, scales of the input's dtype, no zero points.
inline bool check_mixed_args(const rt::OpContext& in, const rt::Tensor& input,
                             const rt::Tensor& weight, const rt::Tensor& scales,
                             const rt::Tensor* zero_points) {
  if (input.dim() != 2 || weight.dim() != 2) {
    in.fail("input and weight must have 2 dims");
    return false;
  }
  if (weight.dtype() != rt::ScalarType::Char) {
    in.fail("weight must be Char (int8)");
    return false;
  }
  if (scales.dtype() != input.dtype() || !scales.is_contiguous()) {
    in.fail("weight_scales must be contiguous, of the input's dtype");
    return false;
  }
  if (zero_points != nullptr) {
    in.fail("weight_zero_points are not supported (ExecuTorch's kernel refuses them too)");
    return false;
  }
  return true;
}

// Element (r, c) of a 2-D tensor of type T, through its strides.
template <typename T>
inline T element(const rt::Tensor& t, int64_t r, int64_t c) {
  return t.data_as<T>()[r * t.stride(0) + c * t.stride(1)];
}

}  // namespace quantized
