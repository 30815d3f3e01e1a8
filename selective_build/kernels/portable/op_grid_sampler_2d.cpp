#include <cmath>
#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::grid_sampler_2d.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// torch's numbering of interpolation_mode and padding_mode.
enum Interpolation : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

// Note [Grid sampling]
// out[n, c, h, w] samples input[n, c] at grid[n, h, w] = (x, y), coordinates
// in [-1, 1] over the width and height. A coordinate becomes a pixel position
// (align_corners: -1 and 1 are the centres of the corner pixels, else their
// outer edges), then the padding mode decides what lies outside: zeros,
// the border pixel (clip), or the image mirrored at its edges (reflection,
// then clip). Bilinear and nearest apply the padding mode to the position;
// bicubic, as torch, to each of its 4x4 taps. Bilinear and nearest compute
// in opmath_t<T> (float for 16-bit floats), as ExecuTorch's kernel; bicubic
// in T itself (Note [Bicubic in the tensor's dtype]).

template <typename M>
M unnormalize(M coord, int64_t size, bool align_corners) {
  return align_corners ? (coord + 1) / 2 * static_cast<M>(size - 1)
                       : ((coord + 1) * static_cast<M>(size) - 1) / 2;
}

template <typename M>
M clip(M in, int64_t size) {
  const M high = static_cast<M>(size - 1);
  return in < 0 ? M(0) : (in > high ? high : in);
}

// Mirrors `in` into [twice_low / 2, twice_high / 2].
template <typename M>
M reflect(M in, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return M(0);
  const M low = static_cast<M>(twice_low) / 2;
  const M span = static_cast<M>(twice_high - twice_low) / 2;
  in = std::fabs(in - low);
  const M extra = std::fmod(in, span);
  // The parity of the number of flips, kept in floating point: casting a huge
  // or NaN quotient to an integer would be undefined (NaN comes out NaN).
  const bool even = std::fmod(std::floor(in / span), M(2)) == M(0);
  return even ? extra + low : span - extra + low;
}

// A pixel position after the padding mode (zeros leaves it as it is).
template <typename M>
M apply_padding(M position, int64_t size, int64_t padding, bool align_corners) {
  if (padding == kBorder) return clip(position, size);
  if (padding == kReflection) {
    position =
        align_corners ? reflect(position, 0, 2 * (size - 1)) : reflect(position, -1, 2 * size - 1);
    return clip(position, size);
  }
  return position;
}

// The integer part of a position, or a value far outside every image for NaN,
// infinities and positions beyond int32 (a plain cast would be undefined).
template <typename M>
int64_t index_of(M position) {
  constexpr int64_t kOutside = -(int64_t{1} << 40);
  return position > M(-2147483648.0) && position < M(2147483647.0) ? static_cast<int64_t>(position)
                                                                   : kOutside;
}

struct GridCall {
  const rt::Tensor* input;
  const rt::Tensor* grid;
  rt::Tensor* out;
  int64_t mode, padding;
  bool align_corners;
};

// Note [Bicubic in the tensor's dtype]
// torch's bicubic grid sampling (and ExecuTorch's, which matches it) computes
// in the tensor's own dtype: for Half and BFloat16 every operation rounds to
// it. That is done here too, operation by operation in the same order, so
// 16-bit results agree with both (bilinear and nearest compute in float in
// ExecuTorch, which is what torch's own rounding stays within tolerance of).
// For float and double, R is the identity.
template <typename T>
opmath_t<T> R(opmath_t<T> value) {
  return static_cast<opmath_t<T>>(rt::value_cast<T>(value));
}

template <typename T>
opmath_t<T> unnormalize_rounded(opmath_t<T> coord, int64_t size, bool align_corners) {
  using M = opmath_t<T>;
  if (align_corners) return R<T>(R<T>(R<T>(coord + 1) / 2) * R<T>(static_cast<M>(size - 1)));
  return R<T>(R<T>(R<T>(R<T>(coord + 1) * R<T>(static_cast<M>(size))) - 1) / 2);
}

template <typename T>
opmath_t<T> cubic_inner(opmath_t<T> x,
                        opmath_t<T> a) {  // ((a + 2) x - (a + 3)) x x + 1, for |x| <= 1
  return R<T>(R<T>(R<T>(R<T>(R<T>(R<T>(a + 2) * x) - R<T>(a + 3)) * x) * x) + 1);
}

template <typename T>
opmath_t<T> cubic_outer(opmath_t<T> x,
                        opmath_t<T> a) {  // ((a x - 5 a) x + 8 a) x - 4 a, for 1 < |x| < 2
  return R<T>(R<T>(R<T>(R<T>(R<T>(R<T>(a * x) - R<T>(5 * a)) * x) + R<T>(8 * a)) * x) -
              R<T>(4 * a));
}

// Cubic convolution (a = -0.75, as torch) of four samples at offset t from the second.
template <typename T>
opmath_t<T> cubic(opmath_t<T> p0, opmath_t<T> p1, opmath_t<T> p2, opmath_t<T> p3, opmath_t<T> t) {
  using M = opmath_t<T>;
  const M a = static_cast<M>(-0.75);
  const M u = R<T>(1 - t);
  const M sum = R<T>(R<T>(p0 * cubic_outer<T>(R<T>(t + 1), a)) + R<T>(p1 * cubic_inner<T>(t, a)));
  return R<T>(R<T>(sum + R<T>(p2 * cubic_inner<T>(u, a))) +
              R<T>(p3 * cubic_outer<T>(R<T>(u + 1), a)));
}

template <typename T>
void grid_sample(const GridCall& c) {
  using M = opmath_t<T>;
  const rt::Tensor& in = *c.input;
  const rt::Tensor& grid = *c.grid;
  rt::Tensor& out = *c.out;
  const T* x = in.data_as<const T>();
  const T* g = grid.data_as<const T>();
  T* y = out.data_as<T>();
  const int64_t channels = in.size(1), height = in.size(2), width = in.size(3);
  // Input element (iy, ix) of channel plane `base`, 0 outside.
  auto at = [&](int64_t base, int64_t iy, int64_t ix) {
    return iy >= 0 && iy < height && ix >= 0 && ix < width
               ? static_cast<M>(x[base + iy * in.stride(2) + ix * in.stride(3)])
               : M(0);
  };
  for (int64_t n = 0; n < out.size(0); ++n) {
    for (int64_t h = 0; h < out.size(2); ++h) {
      for (int64_t w = 0; w < out.size(3); ++w) {
        const int64_t gi = n * grid.stride(0) + h * grid.stride(1) + w * grid.stride(2);
        const M gx = unnormalize(static_cast<M>(g[gi]), width, c.align_corners);
        const M gy = unnormalize(static_cast<M>(g[gi + grid.stride(3)]), height, c.align_corners);
        for (int64_t ch = 0; ch < channels; ++ch) {
          const int64_t base = n * in.stride(0) + ch * in.stride(1);
          M value;
          if (c.mode == kBicubic) {
            const M bx = unnormalize_rounded<T>(static_cast<M>(g[gi]), width, c.align_corners);
            const M by = unnormalize_rounded<T>(static_cast<M>(g[gi + grid.stride(3)]), height,
                                                c.align_corners);
            const int64_t x0 = index_of(std::floor(bx)), y0 = index_of(std::floor(by));
            const M tx = R<T>(bx - std::floor(bx)), ty = R<T>(by - std::floor(by));
            // A tap's value after the padding mode, applied to its own position.
            auto tap = [&](int64_t iy, int64_t ix) {
              const M px = apply_padding(static_cast<M>(ix), width, c.padding, c.align_corners);
              const M py = apply_padding(static_cast<M>(iy), height, c.padding, c.align_corners);
              return at(base, index_of(py), index_of(px));
            };
            M rows[4];
            for (int64_t i = 0; i < 4; ++i) {
              const int64_t iy = y0 - 1 + i;
              rows[i] =
                  cubic<T>(tap(iy, x0 - 1), tap(iy, x0), tap(iy, x0 + 1), tap(iy, x0 + 2), tx);
            }
            value = cubic<T>(rows[0], rows[1], rows[2], rows[3], ty);
          } else {
            const M px = apply_padding(gx, width, c.padding, c.align_corners);
            const M py = apply_padding(gy, height, c.padding, c.align_corners);
            if (c.mode == kNearest) {
              value = at(base, index_of(std::nearbyint(py)), index_of(std::nearbyint(px)));
            } else {
              const M fx = std::floor(px), fy = std::floor(py);
              const int64_t ix = index_of(fx), iy = index_of(fy);
              const M tx = px - fx, ty = py - fy;
              value = at(base, iy, ix) * (1 - tx) * (1 - ty) +
                      at(base, iy, ix + 1) * tx * (1 - ty) + at(base, iy + 1, ix) * (1 - tx) * ty +
                      at(base, iy + 1, ix + 1) * tx * ty;
            }
          }
          y[n * out.stride(0) + ch * out.stride(1) + h * out.stride(2) + w * out.stride(3)] =
              rt::value_cast<T>(value);
        }
      }
    }
  }
}

}  // namespace

// grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, *,
//     Tensor(a!) out) -> Tensor(a!)
rt::Tensor& grid_sampler_2d_out(rt::KernelContext& context, const rt::Tensor& input,
                                const rt::Tensor& grid, int64_t interpolation_mode,
                                int64_t padding_mode, bool align_corners, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, input.dtype())) return out;
  if (input.dim() != 4) {
    in.fail("input must have 4 dims (N, C, H, W)");
    return out;
  }
  if (grid.dim() != 4 || grid.size(3) != 2 || grid.size(0) != input.size(0)) {
    in.fail("grid must have shape (N, H_out, W_out, 2) with input's N");
    return out;
  }
  if (grid.dtype() != input.dtype() || out.dtype() != input.dtype()) {
    in.fail("grid and out must have input's dtype");
    return out;
  }
  if (interpolation_mode < kBilinear || interpolation_mode > kBicubic) {
    in.fail("interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic)");
    return out;
  }
  if (padding_mode < kZeros || padding_mode > kReflection) {
    in.fail("padding_mode must be 0 (zeros), 1 (border) or 2 (reflection)");
    return out;
  }
  if ((input.size(2) == 0 || input.size(3) == 0) && grid.numel() != 0 && input.size(1) != 0) {
    in.fail("input must have a non-empty image to sample from");
    return out;
  }
  const int32_t sizes[4] = {input.size(0), input.size(1), grid.size(1), grid.size(2)};
  if (!resize_out(in, out, sizes, 4) || out.numel() == 0) return out;
  const GridCall c{&input, &grid, &out, interpolation_mode, padding_mode, align_corners};
  Dtypes::run(context, kOp, input.dtype(),
              [&](auto tag) { grid_sample<typename decltype(tag)::type>(c); });
  return out;
}

}  // namespace portable
