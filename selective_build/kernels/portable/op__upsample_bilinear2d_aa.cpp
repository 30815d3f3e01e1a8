#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_upsample_bilinear2d_aa.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Note [Anti-aliased bilinear resampling]
// Each output pixel is a weighted mean of the input pixels under a triangle
// filter, separately along H and W, as torch's antialias=True: with `step`
// input pixels per output pixel (1 / scale given, else input / output, or
// (input - 1) / (output - 1) with align_corners), output index o is centred
// at step * (o + 0.5) in the input (align_corners moves no centre here,
// as in torch) and the filter's half-width is max(step, 1): a downscale
// averages every input pixel it covers, an upscale is plain bilinear.
// Weights are normalized to sum to 1. uint8 follows torch's fixed-point
// passes (Note [uint8 anti-aliasing]); the other integer dtypes, which torch
// does not resample, compute in float and round to the nearest value.

// The input range and filter of one output index along one axis.
template <typename M>
struct AxisWindow {
  int64_t first, last;  // input indices [first, last)
  M center, invscale, total;

  // The triangle filter at input index i, before normalization.
  M raw(int64_t i) const {
    const M x = std::fabs((static_cast<M>(i) - center + M(0.5)) * invscale);
    return x < M(1) ? M(1) - x : M(0);
  }
  M weight(int64_t i) const { return total != M(0) ? raw(i) / total : raw(i); }
};

template <typename M>
M axis_step(int64_t input, int64_t output, bool align_corners, rt::Optional<double> scale) {
  if (align_corners)
    return output > 1 ? static_cast<M>(input - 1) / static_cast<M>(output - 1) : M(0);
  if (scale.has_value() && scale.value() > 0) return static_cast<M>(1.0 / scale.value());
  return static_cast<M>(input) / static_cast<M>(output);
}

template <typename M>
AxisWindow<M> axis_window(int64_t o, M step, int64_t input) {
  AxisWindow<M> w;
  w.center = step * (static_cast<M>(o) + M(0.5));
  const M support = step >= M(1) ? step : M(1);
  w.invscale = step >= M(1) ? M(1) / step : M(1);
  const M low = w.center - support + M(0.5), high = w.center + support + M(0.5);
  // Clamped before the casts: a huge or NaN step must not make them undefined.
  const M size = static_cast<M>(input);
  w.first = low > M(0) ? (low < size ? static_cast<int64_t>(low) : input) : 0;
  w.last = high < size ? (high > M(0) ? static_cast<int64_t>(high) : 0) : input;
  w.total = M(0);
  for (int64_t i = w.first; i < w.last; ++i) w.total += w.raw(i);
  return w;
}

template <typename T>
T store(double value) {
  if constexpr (std::is_integral<T>::value) {
    // Round, then saturate: a filter with these weights never leaves the
    // input's range, but rounding at its edge may.
    const double r = std::nearbyint(value);
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    return r < lo ? std::numeric_limits<T>::min()
                  : (r > hi ? std::numeric_limits<T>::max() : static_cast<T>(r));
  } else {
    return rt::value_cast<T>(value);
  }
}

// Note [uint8 anti-aliasing]
// For uint8 torch resamples W, rounds to uint8, then resamples H (an axis
// whose size does not change is skipped), each pass with the weights in fixed
// point: weight * 2^precision rounded to an integer, precision the largest (at
// most 22) that keeps the axis's largest weight below 2^15, and the sum
// rounded by adding 2^(precision - 1) before the shift. The same here, one
// output pixel at a time (no buffer: the W pass of a row is recomputed for
// every output row that reads it), so uint8 results match torch's exactly.
struct FixedAxis {
  double step;
  int shift;

  int64_t weight(const AxisWindow<double>& w, int64_t i) const {
    return static_cast<int64_t>(w.weight(i) * static_cast<double>(int64_t{1} << shift) + 0.5);
  }
};

FixedAxis fixed_axis(double step, int64_t input, int64_t output) {
  double largest = 0;
  for (int64_t o = 0; o < output; ++o) {
    const AxisWindow<double> w = axis_window(o, step, input);
    for (int64_t i = w.first; i < w.last; ++i)
      largest = w.weight(i) > largest ? w.weight(i) : largest;
  }
  int shift = 0;
  while (shift < 22 &&
         static_cast<int64_t>(0.5 + largest * static_cast<double>(int64_t{1} << (shift + 1))) <
             32768) {
    ++shift;
  }
  return FixedAxis{step, shift};
}

uint8_t fixed_round(int64_t sum, int shift) {
  const int64_t r = (sum + (shift > 0 ? int64_t{1} << (shift - 1) : 0)) >> shift;
  return static_cast<uint8_t>(r < 0 ? 0 : (r > 255 ? 255 : r));
}

void resample_uint8(const rt::Tensor& in, rt::Tensor& out, bool align_corners,
                    rt::Optional<double> scale_h, rt::Optional<double> scale_w) {
  const uint8_t* x = in.data_as<const uint8_t>();
  uint8_t* y = out.data_as<uint8_t>();
  const int64_t in_h = in.size(2), in_w = in.size(3), out_h = out.size(2), out_w = out.size(3);
  const FixedAxis fh =
      fixed_axis(axis_step<double>(in_h, out_h, align_corners, scale_h), in_h, out_h);
  const FixedAxis fw =
      fixed_axis(axis_step<double>(in_w, out_w, align_corners, scale_w), in_w, out_w);
  const bool resize_h = in_h != out_h, resize_w = in_w != out_w;
  for (int64_t oh = 0; oh < out_h; ++oh) {
    const AxisWindow<double> wh = axis_window(oh, fh.step, in_h);
    const int64_t first_h = resize_h ? wh.first : oh, last_h = resize_h ? wh.last : oh + 1;
    for (int64_t ow = 0; ow < out_w; ++ow) {
      const AxisWindow<double> ww = axis_window(ow, fw.step, in_w);
      for (int64_t n = 0; n < out.size(0); ++n) {
        for (int64_t c = 0; c < out.size(1); ++c) {
          const uint8_t* plane = x + n * in.stride(0) + c * in.stride(1);
          int64_t sum = 0;
          uint8_t value = 0;
          for (int64_t ih = first_h; ih < last_h; ++ih) {
            const uint8_t* row = plane + ih * in.stride(2);
            if (resize_w) {
              int64_t row_sum = 0;
              for (int64_t iw = ww.first; iw < ww.last; ++iw)
                row_sum += row[iw * in.stride(3)] * fw.weight(ww, iw);
              value = fixed_round(row_sum, fw.shift);
            } else {
              value = row[ow * in.stride(3)];
            }
            if (resize_h) sum += value * fh.weight(wh, ih);
          }
          y[n * out.stride(0) + c * out.stride(1) + oh * out.stride(2) + ow * out.stride(3)] =
              resize_h ? fixed_round(sum, fh.shift) : value;
        }
      }
    }
  }
}

template <typename T>
void resample(const rt::Tensor& in, rt::Tensor& out, bool align_corners,
              rt::Optional<double> scale_h, rt::Optional<double> scale_w) {
  using M = std::conditional_t<std::is_same<T, double>::value, double, float>;
  const T* x = in.data_as<const T>();
  T* y = out.data_as<T>();
  const int64_t in_h = in.size(2), in_w = in.size(3);
  const M step_h = axis_step<M>(in_h, out.size(2), align_corners, scale_h);
  const M step_w = axis_step<M>(in_w, out.size(3), align_corners, scale_w);
  for (int64_t oh = 0; oh < out.size(2); ++oh) {
    const AxisWindow<M> wh = axis_window(oh, step_h, in_h);
    for (int64_t ow = 0; ow < out.size(3); ++ow) {
      const AxisWindow<M> ww = axis_window(ow, step_w, in_w);
      for (int64_t n = 0; n < out.size(0); ++n) {
        for (int64_t c = 0; c < out.size(1); ++c) {
          const T* plane = x + n * in.stride(0) + c * in.stride(1);
          M sum = M(0);
          for (int64_t ih = wh.first; ih < wh.last; ++ih) {
            M row = M(0);
            for (int64_t iw = ww.first; iw < ww.last; ++iw) {
              row +=
                  rt::value_cast<M>(plane[ih * in.stride(2) + iw * in.stride(3)]) * ww.weight(iw);
            }
            sum += row * wh.weight(ih);
          }
          y[n * out.stride(0) + c * out.stride(1) + oh * out.stride(2) + ow * out.stride(3)] =
              store<T>(static_cast<double>(sum));
        }
      }
    }
  }
}

}  // namespace

// _upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None,
//     float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _upsample_bilinear2d_aa_out(rt::KernelContext& context, const rt::Tensor& self,
                                        rt::IntList output_size, bool align_corners,
                                        rt::Optional<double> scales_h,
                                        rt::Optional<double> scales_w, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return out;
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  if (self.dim() != 4) {
    in.fail("self must have 4 dims (N, C, H, W)");
    return out;
  }
  if (output_size.size() != 2 || output_size[0] <= 0 || output_size[1] <= 0 ||
      output_size[0] > INT32_MAX || output_size[1] > INT32_MAX) {
    in.fail("output_size must be two positive sizes");
    return out;
  }
  if ((self.size(2) == 0 || self.size(3) == 0) && self.size(0) != 0 && self.size(1) != 0) {
    in.fail("self must have a non-empty image to resample");
    return out;
  }
  const int32_t sizes[4] = {self.size(0), self.size(1), static_cast<int32_t>(output_size[0]),
                            static_cast<int32_t>(output_size[1])};
  if (!resize_out(in, out, sizes, 4) || out.numel() == 0) return out;
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, uint8_t>::value) {
      resample_uint8(self, out, align_corners, scales_h, scales_w);
    } else {
      resample<T>(self, out, align_corners, scales_h, scales_w);
    }
  });
  return out;
}

}  // namespace portable
