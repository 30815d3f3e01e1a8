#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/pixels.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/window.h"
#include "kernels/portable/util/nn_pool.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

// Float average pooling an output row at a time: the row accumulates one window tap per
// pass (a run along the row the compiler vectorises when columns are dense), then is
// divided by each window's count. Every output adds its window in portable's order (rows,
// then columns) and divides the same way, so the results are portable's to the bit.
// Channels-last tensors: a vector of channels per pixel (Note [Sums over pixels]).
namespace optimized {
namespace {

constexpr const char* kOp = "aten::avg_pool2d.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct AvgPoolCall {
  portable::PoolWindow win;
  portable::Planes4 x, y;
  bool count_include_pad;
  int64_t divisor;  // 0: none given
};

// Adds input row `x_row` under every column tap of the window to the output row.
template <bool kDense>
void add_taps(const AvgPoolCall& c, const float* x_row, float* y_row) {
  const int64_t xc = kDense ? 1 : c.x.stride[3], yc = kDense ? 1 : c.y.stride[3];
  for (int64_t kx = 0; kx < c.win.kernel[1]; ++kx) {
    const int64_t offset = kx - c.win.padding[1];
    int64_t lo, hi;
    opt::valid_outputs(offset, c.win.stride[1], c.x.size[3], c.y.size[3], &lo, &hi);
    if (kDense && c.win.stride[1] == 1) {
      const float* src = x_row + (lo + offset);
      float* dst = y_row + lo;
      for (int64_t i = 0; i < hi - lo; ++i) dst[i] += src[i];
    } else {
      for (int64_t ox = lo; ox < hi; ++ox)
        y_row[ox * yc] += x_row[(ox * c.win.stride[1] + offset) * xc];
    }
  }
}

// The divisor of output (oy, ox): as portable's kernel (the window clipped to the padded
// input, or to the input without count_include_pad; one for a window wholly in padding).
int64_t window_count(const AvgPoolCall& c, int64_t oy, int64_t ox) {
  if (c.divisor != 0) return c.divisor;
  int64_t count = 1;
  const int64_t at[2] = {oy, ox};
  for (int d = 0; d < 2; ++d) {
    const int64_t size = c.x.size[2 + d];
    const int64_t first = at[d] * c.win.stride[d] - c.win.padding[d];
    const int64_t last = std::min(first + c.win.kernel[d], size + c.win.padding[d]);
    count *=
        c.count_include_pad ? last - first : std::min(last, size) - std::max(first, int64_t{0});
  }
  return count == 0 ? 1 : count;
}

// Input and out channels last (each pixel's channels adjacent): each output's window,
// clipped to the input, is Note [Sums over pixels] (portable's order: rows, then columns),
// divided by window_count. Output rows split over the threads.
void avg_pool_channels_last(const AvgPoolCall& c, const float* px, float* py) {
  const int64_t out_h = c.y.size[2];
  opt::parallel_for(c.y.size[0] * out_h, 1, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t n = item / out_h, oy = item % out_h;
      int64_t ky0, ky1;
      const int64_t top = oy * c.win.stride[0] - c.win.padding[0];
      opt::valid_outputs(top, 1, c.x.size[2], c.win.kernel[0], &ky0, &ky1);
      for (int64_t ox = 0; ox < c.y.size[3]; ++ox) {
        int64_t kx0, kx1;
        const int64_t left = ox * c.win.stride[1] - c.win.padding[1];
        opt::valid_outputs(left, 1, c.x.size[3], c.win.kernel[1], &kx0, &kx1);
        // An empty window (wholly in padding) sums nothing from a pixel inside.
        const PixelWindow window{
            px + c.x.at(n, 0, ky1 > ky0 ? top + ky0 : 0, kx1 > kx0 ? left + kx0 : 0), ky1 - ky0,
            c.x.stride[2], kx1 > kx0 ? kx1 - kx0 : 0, c.x.stride[3]};
        window_mean(window, c.y.size[1], static_cast<float>(window_count(c, oy, ox)),
                    py + c.y.at(n, 0, oy, ox));
      }
    }
  });
}

void avg_pool(const AvgPoolCall& c, const float* px, float* py) {
  const bool dense = c.x.stride[3] == 1 && c.y.stride[3] == 1;
  const int64_t channels = c.y.size[1];
  opt::parallel_for(c.y.size[0] * channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t n = plane / channels, ch = plane % channels;
      for (int64_t oy = 0; oy < c.y.size[2]; ++oy) {
        float* y_row = py + c.y.at(n, ch, oy, 0);
        for (int64_t ox = 0; ox < c.y.size[3]; ++ox) y_row[ox * c.y.stride[3]] = 0.0f;
        for (int64_t ky = 0; ky < c.win.kernel[0]; ++ky) {
          const int64_t h = oy * c.win.stride[0] - c.win.padding[0] + ky;
          if (h < 0 || h >= c.x.size[2]) continue;
          const float* x_row = px + c.x.at(n, ch, h, 0);
          if (dense) {
            add_taps<true>(c, x_row, y_row);
          } else {
            add_taps<false>(c, x_row, y_row);
          }
        }
        for (int64_t ox = 0; ox < c.y.size[3]; ++ox) {
          y_row[ox * c.y.stride[3]] /= static_cast<float>(window_count(c, oy, ox));
        }
      }
    }
  });
}

}  // namespace

// avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False,
//     bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out)
rt::Tensor& avg_pool2d_out(rt::KernelContext& context, const rt::Tensor& self,
                           rt::IntList kernel_size, rt::IntList stride, rt::IntList padding,
                           bool ceil_mode, bool count_include_pad,
                           rt::Optional<int64_t> divisor_override, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  portable::PoolWindow win;
  if (!portable::plan_avg_pool2d<Dtypes>(in, self, kernel_size, stride, padding, ceil_mode,
                                         divisor_override, out, &win) ||
      out.numel() == 0) {
    return out;
  }
  const AvgPoolCall c{win, portable::Planes4(self), portable::Planes4(out), count_include_pad,
                      divisor_override.value_or(0)};
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    static_assert(std::is_same<typename decltype(tag)::type, float>::value,
                  "only Float is claimed");
    if (c.x.stride[1] == 1 && c.y.stride[1] == 1 && c.x.size[1] > 1) {
      avg_pool_channels_last(c, self.data_as<const float>(), out.data_as<float>());
    } else {
      avg_pool(c, self.data_as<const float>(), out.data_as<float>());
    }
  });
  return out;
}

}  // namespace optimized
