#pragma once

// The loops of the per-channel and per-token (de)quantize kernels: a token is a channel of
// the input seen as (tokens, last dim), as ExecuTorch's per-token kernels reshape it.
// Positions are walked in row-major order through each tensor's own dim order, so any dim
// order the program gives works.

#include <cstdint>

#include "kernels/quantized/quant_util.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {

// The channel axis of a per-channel operator, made non-negative; false after failing `in`
// unless -dim <= axis < dim.
inline bool normalize_axis(const rt::OpContext& in, const rt::Tensor& input, int64_t* axis) {
  if (*axis < -input.dim() || *axis >= input.dim()) {
    in.fail("axis is out of range for the input's dims");
    return false;
  }
  if (*axis < 0) *axis += input.dim();
  return true;
}

// Row-major positions: the channel of position i is (i / inner) % channels.
struct ChannelWalk {
  int64_t channels;
  int64_t inner;
  int64_t channel_of(int64_t i) const { return inner == 0 ? 0 : i / inner % channels; }
};

inline ChannelWalk channel_walk(const rt::Tensor& input, int64_t axis) {
  int64_t inner = 1;
  for (int d = static_cast<int>(axis) + 1; d < input.dim(); ++d) inner *= input.size(d);
  return ChannelWalk{input.size(static_cast<int>(axis)), inner};
}

// Per-channel parameters: a scale from a Double (or, where allowed, Float) tensor and a
// zero point from a Long (or, where allowed, Int) tensor, entry c < numel in row-major order
// (through the tensor's dim order: a (C, 1) parameter tensor may come permuted).
inline double scale_at(const rt::Tensor& scales, int64_t c) {
  const int64_t at = scales.offset_of(c);
  return scales.dtype() == ScalarType::Double ? scales.data_as<double>()[at]
                                              : scales.data_as<float>()[at];
}
inline int64_t zero_point_at(const rt::Tensor& zero_points, int64_t c) {
  const int64_t at = zero_points.offset_of(c);
  return zero_points.dtype() == ScalarType::Long ? zero_points.data_as<int64_t>()[at]
                                                 : zero_points.data_as<int32_t>()[at];
}

// One channel per token, the run of values along the last dim; false after failing `in`
// for a 0-dim input.
inline bool tokens_of(const rt::OpContext& in, const rt::Tensor& input, ChannelWalk* walk) {
  if (input.dim() == 0) {
    in.fail("input must have at least one dim (its last one holds the tokens' values)");
    return false;
  }
  int64_t tokens = 1;
  for (int d = 0; d + 1 < input.dim(); ++d) tokens *= input.size(d);
  *walk = ChannelWalk{tokens, input.size(input.dim() - 1)};
  return true;
}

template <typename InDtypes, typename OutDtypes>
void quantize_channels(const rt::OpContext& in, const rt::Tensor& input, const rt::Tensor& scales,
                       const rt::Tensor& zero_points, ChannelWalk walk, int64_t quant_min,
                       int64_t quant_max, ScalarType dtype, rt::Tensor& out) {
  if (scales.dtype() != ScalarType::Double || scales.numel() != walk.channels) {
    in.fail("scales must be a Double tensor with one element per channel (or token)");
    return;
  }
  if (zero_points.dtype() != ScalarType::Long || zero_points.numel() != walk.channels) {
    in.fail("zero_points must be a Long tensor with one element per channel (or token)");
    return;
  }
  if (out.dtype() != dtype) {
    in.fail("out must have the dtype given by 'dtype'");
    return;
  }
  if (!rt::resize_out(in, out, input.sizes().data(), input.dim())) return;
  OutDtypes::run(in.context(), in.op(), out.dtype(), [&](auto out_tag) {
    using Q = typename decltype(out_tag)::type;
    if (!check_quant_range(in, out.dtype(), quant_min, quant_max)) return;
    InDtypes::run(in.context(), in.op(), input.dtype(), [&](auto in_tag) {
      using T = typename decltype(in_tag)::type;
      const T* from = input.data_as<T>();
      Q* to = out.data_as<Q>();
      for (int64_t i = 0; i < input.numel(); ++i) {
        const int64_t c = walk.channel_of(i);
        const float inv_scale = 1.0f / static_cast<float>(scale_at(scales, c));
        const int32_t zp = static_cast<int32_t>(zero_point_at(zero_points, c));
        to[out.offset_of(i)] =
            quantize_value<Q>(from[input.offset_of(i)], inv_scale, zp, quant_min, quant_max);
      }
    });
  });
}

// Scales may be Double or Float, zero points Long, Int or absent (null: 0), as ExecuTorch
// takes.
template <typename InDtypes, typename OutDtypes>
void dequantize_channels(const rt::OpContext& in, const rt::Tensor& input, const rt::Tensor& scales,
                         const rt::Tensor* zero_points, ChannelWalk walk, int64_t quant_min,
                         int64_t quant_max, ScalarType dtype, rt::Optional<ScalarType> out_dtype,
                         rt::Tensor& out) {
  if ((scales.dtype() != ScalarType::Double && scales.dtype() != ScalarType::Float) ||
      scales.numel() != walk.channels) {
    in.fail("scales must be a Double or Float tensor with one element per channel (or token)");
    return;
  }
  if (zero_points != nullptr) {
    const rt::Tensor& zp = *zero_points;
    if ((zp.dtype() != ScalarType::Long && zp.dtype() != ScalarType::Int) ||
        zp.numel() != walk.channels) {
      in.fail("zero_points must be a Long or Int tensor with one element per channel (or token)");
      return;
    }
  }
  if (input.dtype() != dtype) {
    in.fail("input must have the dtype given by 'dtype'");
    return;
  }
  if (out_dtype.has_value() && out.dtype() != out_dtype.value()) {
    in.fail("out must have the dtype given by 'out_dtype'");
    return;
  }
  if (quant_min > quant_max) {
    in.fail("quant_min is greater than quant_max");
    return;
  }
  if (!rt::resize_out(in, out, input.sizes().data(), input.dim())) return;
  InDtypes::run(in.context(), in.op(), input.dtype(), [&](auto in_tag) {
    using Q = typename decltype(in_tag)::type;
    OutDtypes::run(in.context(), in.op(), out.dtype(), [&](auto out_tag) {
      using F = typename decltype(out_tag)::type;
      const Q* from = input.data_as<Q>();
      F* to = out.data_as<F>();
      for (int64_t i = 0; i < input.numel(); ++i) {
        const int64_t c = walk.channel_of(i);
        const int64_t zp = zero_points != nullptr ? zero_point_at(*zero_points, c) : 0;
        const float scale = static_cast<float>(scale_at(scales, c));
        to[out.offset_of(i)] = dequantize_value<F>(from[input.offset_of(i)], zp, scale);
      }
    });
  });
}

}  // namespace quantized
