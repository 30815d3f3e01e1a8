#include <cstdint>

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

constexpr const char* kOp = "aten::avg_pool2d.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

template <typename T>
void avg_pool(const PoolWindow& win, const Planes4& x, const Planes4& y, bool count_include_pad,
              int64_t divisor, const T* px, T* py) {
  using M = opmath_t<T>;
  const int64_t height = x.size[2], width = x.size[3];
  for (int64_t n = 0; n < y.size[0]; ++n) {
    for (int64_t c = 0; c < y.size[1]; ++c) {
      for (int64_t oh = 0; oh < y.size[2]; ++oh) {
        for (int64_t ow = 0; ow < y.size[3]; ++ow) {
          // The window clipped to the padded input, then to the input.
          int64_t h0 = oh * win.stride[0] - win.padding[0],
                  w0 = ow * win.stride[1] - win.padding[1];
          int64_t h1 = h0 + win.kernel[0], w1 = w0 + win.kernel[1];
          if (h1 > height + win.padding[0]) h1 = height + win.padding[0];
          if (w1 > width + win.padding[1]) w1 = width + win.padding[1];
          const int64_t padded_count = (h1 - h0) * (w1 - w0);
          h0 = h0 < 0 ? 0 : h0;
          w0 = w0 < 0 ? 0 : w0;
          h1 = h1 > height ? height : h1;
          w1 = w1 > width ? width : w1;
          M sum = M(0);
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) sum += static_cast<M>(px[x.at(n, c, h, w)]);
          }
          int64_t count = divisor != 0        ? divisor
                          : count_include_pad ? padded_count
                                              : (h1 - h0) * (w1 - w0);
          if (count == 0) count = 1;  // a window wholly in the padding averages nothing: 0
          py[y.at(n, c, oh, ow)] = rt::value_cast<T>(sum / static_cast<M>(count));
        }
      }
    }
  }
}

}  // namespace

// avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False,
//     bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out)
rt::Tensor& avg_pool2d_out(rt::KernelContext& context, const rt::Tensor& self,
                           rt::IntList kernel_size, rt::IntList stride, rt::IntList padding,
                           bool ceil_mode, bool count_include_pad,
                           rt::Optional<int64_t> divisor_override, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  PoolWindow win;
  if (!plan_avg_pool2d<Dtypes>(in, self, kernel_size, stride, padding, ceil_mode, divisor_override,
                               out, &win)) {
    return out;
  }
  const int64_t divisor = divisor_override.value_or(0);
  const Planes4 x(self), y(out);
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    avg_pool<T>(win, x, y, count_include_pad, divisor, self.data_as<const T>(), out.data_as<T>());
  });
  return out;
}

}  // namespace portable
