// quantized_decomposed::dequantize_per_channel: (q - zero_point[c]) * scale[c] along `axis`;
// scales Double or Float, zero points Long or Int or absent (0), as ExecuTorch accepts.
// Positions are walked in row-major order through each tensor's own dim order.

#include <cstdint>

#include "kernels/quantized/quant_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::dequantize_per_channel.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using InDtypes = rt::DtypeDispatch<kQuantIntDtypes.bits(), kSelected.bits()>;
using OutDtypes = rt::DtypeDispatch<kQuantFloatDtypes.bits(), kSelected.bits()>;

}  // namespace

// dequantize_per_channel.out(Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min,
//                            int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None,
//                            Tensor(a!) out) -> Tensor(a!)
rt::Tensor& dequantize_per_channel_out(rt::KernelContext& context, const rt::Tensor& input,
                                       const rt::Tensor& scales, rt::Optional<rt::Tensor> zero_points,
                                       int64_t axis, int64_t quant_min, int64_t quant_max, rt::ScalarType dtype,
                                       rt::Optional<rt::ScalarType> out_dtype, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!normalize_axis(in, input, &axis)) return out;
  const int64_t channels = input.size(static_cast<int>(axis));
  if ((scales.dtype() != ScalarType::Double && scales.dtype() != ScalarType::Float) || scales.numel() != channels) {
    in.fail("scales must be a Double or Float tensor of input.size(axis) elements");
    return out;
  }
  if (zero_points.has_value()) {
    const rt::Tensor& zp = zero_points.value();
    if ((zp.dtype() != ScalarType::Long && zp.dtype() != ScalarType::Int) || zp.numel() != channels) {
      in.fail("zero_points must be a Long or Int tensor of input.size(axis) elements");
      return out;
    }
  }
  if (input.dtype() != dtype) {
    in.fail("input must have the dtype given by 'dtype'");
    return out;
  }
  if (out_dtype.has_value() && out.dtype() != out_dtype.value()) {
    in.fail("out must have the dtype given by 'out_dtype'");
    return out;
  }
  if (quant_min > quant_max) {
    in.fail("quant_min is greater than quant_max");
    return out;
  }
  if (!rt::resize_out(in, out, input.sizes().data(), input.dim())) return out;
  const ChannelWalk walk = channel_walk(input, axis);
  InDtypes::run(context, kOp, input.dtype(), [&](auto in_tag) {
    using Q = typename decltype(in_tag)::type;
    OutDtypes::run(context, kOp, out.dtype(), [&](auto out_tag) {
      using F = typename decltype(out_tag)::type;
      const Q* from = input.data_as<Q>();
      F* to = out.data_as<F>();
      for (int64_t i = 0; i < input.numel(); ++i) {
        const int64_t c = walk.channel_of(i);
        const int64_t zp = zero_points.has_value() ? zero_point_at(zero_points.value(), c) : 0;
        const float scale = static_cast<float>(scale_at(scales, c));
        to[out.offset_of(i)] = dequantize_value<F>(from[input.offset_of(i)], zp, scale);
      }
    });
  });
  return out;
}

}  // namespace quantized
