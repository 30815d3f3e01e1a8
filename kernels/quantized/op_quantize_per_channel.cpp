// quantized_decomposed::quantize_per_channel: a scale (Double) and zero point (Long) per
// index along `axis`. Positions are walked in row-major order through each tensor's own dim
// order, so a channels-last input works as well as a contiguous one.

#include <cstdint>

#include "kernels/quantized/quant_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::quantize_per_channel.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using InDtypes = rt::DtypeDispatch<kQuantFloatDtypes.bits(), kSelected.bits()>;
using OutDtypes = rt::DtypeDispatch<kQuantIntDtypes.bits(), kSelected.bits()>;

}  // namespace

// quantize_per_channel.out(Tensor input, Tensor scales, Tensor zero_points, int axis, int quant_min,
//                          int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& quantize_per_channel_out(rt::KernelContext& context, const rt::Tensor& input, const rt::Tensor& scales,
                                     const rt::Tensor& zero_points, int64_t axis, int64_t quant_min,
                                     int64_t quant_max, rt::ScalarType dtype, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!normalize_axis(in, input, &axis)) return out;
  const int64_t channels = input.size(static_cast<int>(axis));
  if (scales.dtype() != ScalarType::Double || scales.numel() != channels) {
    in.fail("scales must be a Double tensor of input.size(axis) elements");
    return out;
  }
  if (zero_points.dtype() != ScalarType::Long || zero_points.numel() != channels) {
    in.fail("zero_points must be a Long tensor of input.size(axis) elements");
    return out;
  }
  if (out.dtype() != dtype) {
    in.fail("out must have the dtype given by 'dtype'");
    return out;
  }
  if (!rt::resize_out(in, out, input.sizes().data(), input.dim())) return out;
  const ChannelWalk walk = channel_walk(input, axis);
  OutDtypes::run(context, kOp, out.dtype(), [&](auto out_tag) {
    using Q = typename decltype(out_tag)::type;
    if (!check_quant_range(in, out.dtype(), quant_min, quant_max)) return;
    InDtypes::run(context, kOp, input.dtype(), [&](auto in_tag) {
      using T = typename decltype(in_tag)::type;
      const T* from = input.data_as<T>();
      Q* to = out.data_as<Q>();
      for (int64_t i = 0; i < input.numel(); ++i) {
        const int64_t c = walk.channel_of(i);
        const float inv_scale = 1.0f / static_cast<float>(scale_at(scales, c));
        const int32_t zp = static_cast<int32_t>(zero_point_at(zero_points, c));
        to[out.offset_of(i)] = quantize_value<Q>(from[input.offset_of(i)], inv_scale, zp, quant_min, quant_max);
      }
    });
  });
  return out;
}

}  // namespace quantized
