#include <cstdint>
#include <limits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::max_pool2d_with_indices.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

template <typename T>
void max_pool(const PoolWindow& win, const Planes4& x, const Planes4& y, const Planes4& ix,
              const T* px, T* py, int64_t* pi) {
  using M = opmath_t<T>;
  const int64_t height = x.size[2], width = x.size[3];
  for (int64_t n = 0; n < y.size[0]; ++n) {
    for (int64_t c = 0; c < y.size[1]; ++c) {
      for (int64_t oh = 0; oh < y.size[2]; ++oh) {
        for (int64_t ow = 0; ow < y.size[3]; ++ow) {
          // The first window position inside the input; the window always has one.
          int64_t h0 = oh * win.stride[0] - win.padding[0];
          int64_t w0 = ow * win.stride[1] - win.padding[1];
          const int64_t h1 = h0 + win.dilation[0] * (win.kernel[0] - 1) + 1;
          const int64_t w1 = w0 + win.dilation[1] * (win.kernel[1] - 1) + 1;
          // The first tap at or after 0 (a padding may be 2^31 taps: no step per tap).
          if (h0 < 0) h0 += (-h0 + win.dilation[0] - 1) / win.dilation[0] * win.dilation[0];
          if (w0 < 0) w0 += (-w0 + win.dilation[1] - 1) / win.dilation[1] * win.dilation[1];
          M best = std::numeric_limits<M>::has_infinity ? -std::numeric_limits<M>::infinity()
                                                        : std::numeric_limits<M>::lowest();
          int64_t best_index = h0 * width + w0;
          for (int64_t h = h0; h < h1 && h < height; h += win.dilation[0]) {
            for (int64_t w = w0; w < w1 && w < width; w += win.dilation[1]) {
              const M v = static_cast<M>(px[x.at(n, c, h, w)]);
              // A NaN wins (the last one seen), as torch.
              if (v > best || v != v) {
                best = v;
                best_index = h * width + w;
              }
            }
          }
          py[y.at(n, c, oh, ow)] = rt::value_cast<T>(best);
          pi[ix.at(n, c, oh, ow)] = best_index;
        }
      }
    }
  }
}

}  // namespace

// max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//     int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices)
void max_pool2d_with_indices_out(rt::KernelContext& context, const rt::Tensor& self,
                                 rt::IntList kernel_size, rt::IntList stride, rt::IntList padding,
                                 rt::IntList dilation, bool ceil_mode, rt::Tensor& out,
                                 rt::Tensor& indices) {
  const rt::OpContext in(context, kOp);
  PoolWindow win;
  if (!plan_max_pool2d_with_indices<Dtypes>(in, self, kernel_size, stride, padding, dilation,
                                            ceil_mode, out, indices, &win)) {
    return;
  }
  const Planes4 x(self), y(out), ix(indices);
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    max_pool<T>(win, x, y, ix, self.data_as<const T>(), out.data_as<T>(),
                indices.data_as<int64_t>());
  });
}

}  // namespace portable
