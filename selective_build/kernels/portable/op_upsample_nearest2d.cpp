#include <cmath>
#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/nn_upsample.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::upsample_nearest2d.vec_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// The input index output index `o` copies: floor(o * step) as torch (in
// float), with its exact shortcuts for equal and doubled sizes.
int64_t nearest_source(int64_t o, int64_t input, int64_t output, float step) {
  if (output == input) return o;
  if (output == 2 * input) return o >> 1;
  const int64_t source = static_cast<int64_t>(std::floor(static_cast<float>(o) * step));
  return source < input - 1 ? source : input - 1;
}

// Copies W-byte elements (moving bytes only: one loop per element size).
template <typename W>
void upsample_nearest(const Planes4& x, const Planes4& y, const double* scales, const W* px,
                      W* py) {
  const float step_h = upsample_step<float>(scales[0], x.size[2], y.size[2]);
  const float step_w = upsample_step<float>(scales[1], x.size[3], y.size[3]);
  for (int64_t n = 0; n < y.size[0]; ++n) {
    for (int64_t c = 0; c < y.size[1]; ++c) {
      for (int64_t oh = 0; oh < y.size[2]; ++oh) {
        const int64_t ih = nearest_source(oh, x.size[2], y.size[2], step_h);
        for (int64_t ow = 0; ow < y.size[3]; ++ow) {
          py[y.at(n, c, oh, ow)] =
              px[x.at(n, c, ih, nearest_source(ow, x.size[3], y.size[3], step_w))];
        }
      }
    }
  }
}

}  // namespace

// upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out)
rt::Tensor& upsample_nearest2d_vec_out(rt::KernelContext& context, const rt::Tensor& input,
                                       rt::Optional<rt::IntList> output_size,
                                       rt::Optional<rt::DoubleList> scale_factors,
                                       rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  double scales[2];
  if (!Dtypes::check(context, kOp, input.dtype())) return out;
  if (!plan_upsample2d(in, output_size, scale_factors, input, out, scales)) return out;
  const Planes4 x(input), y(out);
  switch (input.element_size()) {
    case 1: {
      upsample_nearest<uint8_t>(x, y, scales, input.data_as<const uint8_t>(),
                                out.data_as<uint8_t>());
      return out;
    }
    case 2: {
      upsample_nearest<uint16_t>(x, y, scales, input.data_as<const uint16_t>(),
                                 out.data_as<uint16_t>());
      return out;
    }
    case 4: {
      upsample_nearest<uint32_t>(x, y, scales, input.data_as<const uint32_t>(),
                                 out.data_as<uint32_t>());
      return out;
    }
    default: {
      upsample_nearest<uint64_t>(x, y, scales, input.data_as<const uint64_t>(),
                                 out.data_as<uint64_t>());
      return out;
    }
  }
  return out;
}

}  // namespace portable
