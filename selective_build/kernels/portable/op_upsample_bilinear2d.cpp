#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/nn_upsample.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::upsample_bilinear2d.vec_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Where output index `o` samples the input along one dim: the lower
// neighbour, the upper one (the same at the edge) and the upper's weight.
template <typename M>
struct Sample {
  int64_t lo, hi;
  M weight;
};

template <typename M>
Sample<M> bilinear_source(int64_t o, int64_t input, int64_t output, bool align_corners,
                          double scale) {
  M step;
  M source;
  if (align_corners) {
    step = output > 1 ? static_cast<M>(input - 1) / static_cast<M>(output - 1) : M(0);
    source = step * static_cast<M>(o);
  } else {
    step = upsample_step<M>(scale, input, output);
    source = step * (static_cast<M>(o) + M(0.5)) - M(0.5);
    if (source < M(0)) source = M(0);
  }
  Sample<M> s;
  s.lo = static_cast<int64_t>(source);
  if (s.lo > input - 1) s.lo = input - 1;
  s.hi = s.lo < input - 1 ? s.lo + 1 : s.lo;
  s.weight = source - static_cast<M>(s.lo);
  return s;
}

template <typename T>
void upsample_bilinear(const Planes4& x, const Planes4& y, bool align_corners, const double* scales,
                       const T* px, T* py) {
  using M = opmath_t<T>;
  for (int64_t oh = 0; oh < y.size[2]; ++oh) {
    const Sample<M> h = bilinear_source<M>(oh, x.size[2], y.size[2], align_corners, scales[0]);
    for (int64_t ow = 0; ow < y.size[3]; ++ow) {
      const Sample<M> w = bilinear_source<M>(ow, x.size[3], y.size[3], align_corners, scales[1]);
      for (int64_t n = 0; n < y.size[0]; ++n) {
        for (int64_t c = 0; c < y.size[1]; ++c) {
          const M top = (M(1) - w.weight) * static_cast<M>(px[x.at(n, c, h.lo, w.lo)]) +
                        w.weight * static_cast<M>(px[x.at(n, c, h.lo, w.hi)]);
          const M bottom = (M(1) - w.weight) * static_cast<M>(px[x.at(n, c, h.hi, w.lo)]) +
                           w.weight * static_cast<M>(px[x.at(n, c, h.hi, w.hi)]);
          py[y.at(n, c, oh, ow)] = rt::value_cast<T>((M(1) - h.weight) * top + h.weight * bottom);
        }
      }
    }
  }
}

}  // namespace

// upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *,
//     Tensor(a!) out) -> Tensor(a!)
rt::Tensor& upsample_bilinear2d_vec_out(rt::KernelContext& context, const rt::Tensor& input,
                                        rt::Optional<rt::IntList> output_size, bool align_corners,
                                        rt::Optional<rt::DoubleList> scale_factors,
                                        rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  double scales[2];
  if (!Dtypes::check(context, kOp, input.dtype())) return out;
  if (!plan_upsample2d(in, output_size, scale_factors, input, out, scales)) return out;
  if (input.numel() == 0) return out;
  const Planes4 x(input), y(out);
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    upsample_bilinear<T>(x, y, align_corners, scales, input.data_as<const T>(), out.data_as<T>());
  });
  return out;
}

}  // namespace portable
