#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/parallel.h"
#include "kernels/portable/util/nn_batch_norm.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

// Eigen's array maps vectorise the per-plane affine map with the toolchain's SIMD.
#define EIGEN_DONT_PARALLELIZE
#define EIGEN_NO_DEBUG
#include <Eigen/Core>

// Batch norm at inference is one affine map per channel: y = x * scale + shift, with
// scale = weight / sqrt(var + eps) and shift = bias - mean * scale folded once per channel
// (in float, as portable's kernel does, so both round alike).
namespace optimized {
namespace {

constexpr const char* kOp = "aten::_native_batch_norm_legit_no_training.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

float param(const rt::Tensor* p, int64_t ch, float fallback) {
  return p == nullptr ? fallback : p->data_as<const float>()[ch * p->stride(0)];
}

void batch_norm(const portable::BatchNormCall& c) {
  const float* x = c.input->data_as<const float>();
  float* y = c.out->data_as<float>();
  // Contiguous tensors: each (batch, channel) plane is one run; otherwise walk offsets.
  const bool dense = c.input->is_contiguous() && c.out->is_contiguous();
  const portable::ElementOffsets at_x(c.input), at_y(c.out);
  opt::parallel_for(c.channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      const float scale = param(c.params[0], ch, 1.0f) /
                          std::sqrt(param(c.params[3], ch, 0.0f) + static_cast<float>(c.eps));
      const float shift = param(c.params[1], ch, 0.0f) - param(c.params[2], ch, 0.0f) * scale;
      for (int64_t n = 0; n < c.batch; ++n) {
        const int64_t base = (n * c.channels + ch) * c.inner;
        if (dense) {
          Eigen::Map<Eigen::ArrayXf>(y + base, c.inner) =
              Eigen::Map<const Eigen::ArrayXf>(x + base, c.inner) * scale + shift;
        } else {
          for (int64_t i = 0; i < c.inner; ++i)
            y[at_y(base + i)] = x[at_x(base + i)] * scale + shift;
        }
      }
    }
  });
}

}  // namespace

// _native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean,
//     Tensor running_var, float momentum, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
void _native_batch_norm_legit_no_training_out(
    rt::KernelContext& context, const rt::Tensor& input, rt::Optional<rt::Tensor> weight,
    rt::Optional<rt::Tensor> bias, const rt::Tensor& running_mean, const rt::Tensor& running_var,
    double /*momentum*/, double eps, rt::Tensor& out0, rt::Tensor& out1, rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  portable::BatchNormCall c;
  if (!portable::plan_batch_norm_no_training<Dtypes>(in, input, weight.get(), bias.get(),
                                                     running_mean, running_var, eps, out0, out1,
                                                     out2, &c)) {
    return;
  }
  if (input.numel() == 0) return;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    static_assert(std::is_same<typename decltype(tag)::type, float>::value,
                  "only Float is claimed");
    batch_norm(c);
  });
}

}  // namespace optimized
