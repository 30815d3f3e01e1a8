#pragma once

// What the quantized kernels share: the range of each quantized dtype, the check of
// quant_min/quant_max against it, one value's quantization (the rounding rule below) and
// the out checks of the elementwise kernels.
//
// Note [Quantized rounding]
// ExecuTorch 1.5.1's quantize kernels (kernels/quantized/cpu/op_quantize.cpp) compute, per
// value x with the float inverse scale s = 1.0f / float(scale):
//     q = clamp(float(int32(zero_point)) + nearbyint(float(s * x)), quant_min, quant_max)
// in float arithmetic, `nearbyint` rounding halves to even (the default rounding mode).
// PyTorch's decomposed reference (torch/ao/quantization/fx/_decomposed.py) rounds the same
// way (torch.round is half-to-even) on float32; the two agree on the conformance programs.
// We follow ExecuTorch's order of operations, with one difference where ExecuTorch's result
// is undefined: the clamp happens in float, before the conversion to an integer, so a value
// far outside the range (or infinite) saturates instead of overflowing the conversion, and
// NaN becomes quant_min (what ExecuTorch's conversion yields on x86-64).
// Dequantization is (int64(q) - zero_point) * float(scale), rounded once to the out dtype
// (ExecuTorch subtracts in int32, which overflows for Int inputs far from zero_point).

#include <cmath>
#include <cstdint>

#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/dtype_set.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {

using rt::ScalarType;

// False after failing `in` unless [quant_min, quant_max] lies within the range of `dtype`,
// one of the integer dtypes its kernel declares (the caller checked that).
inline bool check_quant_range(const rt::OpContext& in, ScalarType dtype, int64_t quant_min,
                              int64_t quant_max) {
  int64_t low = 0, high = 0;
  switch (dtype) {
    case ScalarType::Byte:
      high = UINT8_MAX;
      break;
    case ScalarType::Char:
      low = INT8_MIN, high = INT8_MAX;
      break;
    case ScalarType::Short:
      low = INT16_MIN, high = INT16_MAX;
      break;
    default:
      low = INT32_MIN, high = INT32_MAX;
      break;
  }
  if (quant_min < low) {
    in.fail("quant_min is below the range of the quantized dtype");
    return false;
  }
  if (quant_max > high) {
    in.fail("quant_max is above the range of the quantized dtype");
    return false;
  }
  return true;
}

// Note [Quantized rounding].
template <typename Q, typename T>
inline Q quantize_value(T x, float inv_scale, int32_t zero_point, int64_t quant_min,
                        int64_t quant_max) {
  const float q =
      static_cast<float>(zero_point) + std::nearbyint(static_cast<float>(inv_scale * x));
  if (!(q >= static_cast<float>(quant_min))) return static_cast<Q>(quant_min);  // NaN too
  if (q > static_cast<float>(quant_max)) return static_cast<Q>(quant_max);
  return static_cast<Q>(static_cast<int64_t>(q));
}

template <typename F, typename Q>
inline F dequantize_value(Q q, int64_t zero_point, float scale) {
  return static_cast<F>(static_cast<float>(static_cast<int64_t>(q) - zero_point) * scale);
}

// False after failing `in` unless `out` (resized if it is dynamic) has the shape and dim
// order of `input`: elementwise kernels then walk both in memory order.
inline bool prepare_elementwise_out(const rt::OpContext& in, const rt::Tensor& input,
                                    rt::Tensor& out) {
  if (!rt::resize_out(in, out, input.sizes().data(), input.dim())) return false;
  for (int d = 0; d < input.dim(); ++d) {
    if (input.dim_order()[d] != out.dim_order()[d]) {
      in.fail("input and out must have the same dim order");
      return false;
    }
  }
  return true;
}

// The one value of a scale (Double) or zero-point (Long) tensor of the Tensor overloads.
inline bool single_double(const rt::OpContext& in, const rt::Tensor& t, const char* what_wrong,
                          double* value) {
  if (t.dtype() != ScalarType::Double || t.numel() != 1) {
    in.fail(what_wrong);
    return false;
  }
  *value = *t.data_as<double>();
  return true;
}

inline bool single_long(const rt::OpContext& in, const rt::Tensor& t, const char* what_wrong,
                        int64_t* value) {
  if (t.dtype() != ScalarType::Long || t.numel() != 1) {
    in.fail(what_wrong);
    return false;
  }
  *value = *t.data_as<int64_t>();
  return true;
}

}  // namespace quantized
