#pragma once

// The quantized embedding kernels (embedding_byte, embedding_4bit, embedding_2bit): rows of
// quantized weights, picked by `indices` and dequantized with a scale (and optional zero
// point) per row or per group of each row. Facts from ExecuTorch 1.5.1's
// kernels/quantized/cpu/op_embedding.cpp and embeddingxb.cpp:
// - weight is 2-D; embedding_byte's holds one Byte or Char value per element; the packed
//   ones hold Byte, 8 / bits values per byte: 4-bit element j in byte j / 2, the high
//   nibble for even j and the low one for odd j, minus 8; 2-bit element j in byte j / 4,
//   bits 2 * (j % 4) and up (the lowest pair first), minus 2. So a row of B bytes holds
//   B * 8 / bits elements, and no row ends in a partial byte.
// - weight_scales is 1-D (one per row) or 2-D (rows x groups, the groups dividing the
//   row); Float, Half or BFloat16; zero points, when given, have the scales' sizes and the
//   out's dtype.
// - out[i, j] = (w - zero_point) * scale in float, rounded once to the out dtype (Float,
//   Half or BFloat16); out's sizes are indices' sizes and the row length.
// - indices are Long (embedding_byte) or Long and Int (the packed ones).
// ExecuTorch reads the `.out` overloads' scales as the out dtype without checking; we
// require it. ExecuTorch does not check the packed overloads' indices; we do.

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_set.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {

// One parameter (scale or zero point) of a Float, Half or BFloat16 tensor, as float.
inline float float_param(const rt::Tensor& t, int64_t index) {
  switch (t.dtype()) {
    case rt::ScalarType::Half:
      return static_cast<float>(t.data_as<rt::Half>()[index]);
    case rt::ScalarType::BFloat16:
      return static_cast<float>(t.data_as<rt::BFloat16>()[index]);
    default:
      return t.data_as<float>()[index];
  }
}

// The value of element j of a weight row starting at `row`, for `bits` 8 (signedness from
// `is_signed`), 4 or 2.
inline int32_t weight_value(const uint8_t* row, int64_t j, int bits, bool is_signed) {
  switch (bits) {
    case 4:
      return ((j & 1) != 0 ? row[j >> 1] & 0x0F : row[j >> 1] >> 4) - 8;
    case 2:
      return ((row[j >> 2] >> (2 * (j & 3))) & 3) - 2;
    default:
      return is_signed ? static_cast<int32_t>(static_cast<int8_t>(row[j]))
                       : static_cast<int32_t>(row[j]);
  }
}

struct EmbeddingCall {
  const rt::Tensor& weight;
  const rt::Tensor& scales;
  const rt::Tensor* zero_points;  // null: 0
  int64_t quant_min;
  int64_t quant_max;
  const rt::Tensor& indices;
  rt::Optional<rt::ScalarType> dtype;  // the out dtype, when the overload takes one
  bool scales_in_out_dtype;            // the .out overloads: scales must have the out dtype
  bool int_indices;                    // Int indices allowed beside Long
  int bits;                            // 8, 4 or 2 per weight element
};

// Checks every argument, resizes out and fills it; failures go to `in` in one line.
template <const char* const* kName>
void quantized_embedding(const rt::OpContext& in, const EmbeddingCall& call, rt::Tensor& out) {
  using OutDtypes = rt::DtypeDispatch<kernels::declared_dtypes(*kName).bits(),
                                      rt::selected_dtypes(*kName).bits()>;
  const rt::Tensor& weight = call.weight;
  const rt::Tensor& scales = call.scales;
  if (weight.dim() != 2 || !weight.is_contiguous()) {
    in.fail("weight must be a contiguous 2-D tensor");
    return;
  }
  const bool byte_weight = weight.dtype() == rt::ScalarType::Byte;
  if (!byte_weight && !(call.bits == 8 && weight.dtype() == rt::ScalarType::Char)) {
    in.fail(call.bits == 8 ? "weight must be Byte or Char" : "weight must be Byte (packed values)");
    return;
  }
  const int64_t rows = weight.size(0);
  const int64_t width = weight.size(1) * (8 / call.bits);
  if ((scales.dim() != 1 && scales.dim() != 2) || !scales.is_contiguous() ||
      scales.size(0) != rows) {
    in.fail("weight_scales must be contiguous, 1-D or 2-D, with one row per weight row");
    return;
  }
  const int64_t groups = scales.dim() == 2 ? scales.size(1) : 1;
  if (groups == 0 ? width != 0 : width % groups != 0) {
    in.fail("the groups of weight_scales must divide a weight row");
    return;
  }
  if (!rt::is_floating_type(scales.dtype()) || scales.dtype() == rt::ScalarType::Double) {
    in.fail("weight_scales must be Float, Half or BFloat16");
    return;
  }
  if (call.scales_in_out_dtype && scales.dtype() != out.dtype()) {
    in.fail("weight_scales must have the out dtype");
    return;
  }
  if (call.zero_points != nullptr) {
    const rt::Tensor& zp = *call.zero_points;
    bool same_sizes = zp.dim() == scales.dim() && zp.is_contiguous();
    for (int d = 0; same_sizes && d < zp.dim(); ++d) same_sizes = zp.size(d) == scales.size(d);
    if (!same_sizes) {
      in.fail("weight_zero_points must have the sizes of weight_scales");
      return;
    }
    if (zp.dtype() != out.dtype()) {
      in.fail("weight_zero_points must have the out dtype");
      return;
    }
  }
  const rt::Tensor& indices = call.indices;
  if (indices.dtype() != rt::ScalarType::Long &&
      !(call.int_indices && indices.dtype() == rt::ScalarType::Int)) {
    in.fail(call.int_indices ? "indices must be Long or Int" : "indices must be Long");
    return;
  }
  if (call.quant_min > call.quant_max) {
    in.fail("weight_quant_min is greater than weight_quant_max");
    return;
  }
  if (call.dtype.has_value() && out.dtype() != call.dtype.value()) {
    in.fail("out must have the dtype given by 'dtype'");
    return;
  }
  if (indices.dim() + 1 > rt::Tensor::kMaxDims) {
    in.fail("indices have too many dims");
    return;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < indices.dim(); ++d) sizes[d] = indices.size(d);
  sizes[indices.dim()] = static_cast<int32_t>(width);
  if (!rt::resize_out(in, out, sizes, indices.dim() + 1)) return;
  const int64_t group_size = groups == 0 ? 1 : width / groups;
  OutDtypes::run(in.context(), in.op(), out.dtype(), [&](auto tag) {
    using F = typename decltype(tag)::type;
    F* to = out.data_as<F>();
    const uint8_t* data = weight.data_as<uint8_t>();
    for (int64_t i = 0; i < indices.numel(); ++i) {
      const int64_t at = indices.offset_of(i);
      const int64_t row = indices.dtype() == rt::ScalarType::Long ? indices.data_as<int64_t>()[at]
                                                                  : indices.data_as<int32_t>()[at];
      if (row < 0 || row >= rows) {
        in.fail("an index is out of range for weight's rows");
        return;
      }
      const uint8_t* values = data + row * weight.size(1);
      for (int64_t j = 0; j < width; ++j) {
        const int64_t param = row * groups + j / group_size;
        const float zp = call.zero_points != nullptr ? float_param(*call.zero_points, param) : 0.0f;
        const float w = static_cast<float>(weight_value(values, j, call.bits, !byte_weight));
        to[out.offset_of(i * width + j)] = static_cast<F>((w - zp) * float_param(scales, param));
      }
    }
  });
}

}  // namespace quantized
