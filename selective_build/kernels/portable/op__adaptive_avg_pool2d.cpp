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

constexpr const char* kOp = "aten::_adaptive_avg_pool2d.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

template <typename T>
void adaptive_avg_pool(const Planes4& x, const Planes4& y, const T* px, T* py) {
  using M = opmath_t<T>;
  const int64_t height = x.size[2], width = x.size[3], oh_count = y.size[2], ow_count = y.size[3];
  for (int64_t n = 0; n < y.size[0]; ++n) {
    for (int64_t c = 0; c < y.size[1]; ++c) {
      for (int64_t oh = 0; oh < oh_count; ++oh) {
        // Output bin o covers [floor(o * in / out), ceil((o + 1) * in / out)).
        const int64_t h0 = oh * height / oh_count,
                      h1 = ((oh + 1) * height + oh_count - 1) / oh_count;
        for (int64_t ow = 0; ow < ow_count; ++ow) {
          const int64_t w0 = ow * width / ow_count,
                        w1 = ((ow + 1) * width + ow_count - 1) / ow_count;
          M sum = M(0);
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) sum += static_cast<M>(px[x.at(n, c, h, w)]);
          }
          py[y.at(n, c, oh, ow)] = rt::value_cast<T>(sum / static_cast<M>((h1 - h0) * (w1 - w0)));
        }
      }
    }
  }
}

}  // namespace

// _adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _adaptive_avg_pool2d_out(rt::KernelContext& context, const rt::Tensor& self,
                                     rt::IntList output_size, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!plan_adaptive_avg_pool2d<Dtypes>(in, self, output_size, out)) return out;
  const Planes4 x(self), y(out);
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    adaptive_avg_pool<T>(x, y, self.data_as<const T>(), out.data_as<T>());
  });
  return out;
}

}  // namespace portable
