#include <cmath>
#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_batch_norm.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_native_batch_norm_legit_no_training.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

template <typename T>
void batch_norm(const BatchNormCall& c) {
  using M = opmath_t<T>;
  const T* x = c.input->data_as<const T>();
  T* y = c.out->data_as<T>();
  const ElementOffsets at_x(c.input), at_y(c.out);
  // Element ch of a 1-D parameter, or `fallback` when it is absent.
  auto param = [&](int k, int64_t ch, M fallback) {
    const rt::Tensor* p = c.params[k];
    return p == nullptr ? fallback : static_cast<M>(p->data_as<const T>()[ch * p->stride(0)]);
  };
  for (int64_t ch = 0; ch < c.channels; ++ch) {
    // y = (x - mean) / sqrt(var + eps) * weight + bias, as x * scale + shift.
    const M scale = param(0, ch, M(1)) / std::sqrt(param(3, ch, M(0)) + static_cast<M>(c.eps));
    const M shift = param(1, ch, M(0)) - param(2, ch, M(0)) * scale;
    for (int64_t n = 0; n < c.batch; ++n) {
      const int64_t base = (n * c.channels + ch) * c.inner;
      for (int64_t i = 0; i < c.inner; ++i) {
        y[at_y(base + i)] = rt::value_cast<T>(static_cast<M>(x[at_x(base + i)]) * scale + shift);
      }
    }
  }
}

}  // namespace

// _native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean,
//     Tensor running_var, float momentum, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
void _native_batch_norm_legit_no_training_out(
    rt::KernelContext& context, const rt::Tensor& input, rt::Optional<rt::Tensor> weight,
    rt::Optional<rt::Tensor> bias, const rt::Tensor& running_mean, const rt::Tensor& running_var,
    double /*momentum*/, double eps, rt::Tensor& out0, rt::Tensor& out1, rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  BatchNormCall c;
  if (!plan_batch_norm_no_training<Dtypes>(in, input, weight.get(), bias.get(), running_mean,
                                           running_var, eps, out0, out1, out2, &c)) {
    return;
  }
  if (c.input->numel() == 0) return;
  Dtypes::run(context, kOp, c.input->dtype(),
              [&](auto tag) { batch_norm<typename decltype(tag)::type>(c); });
}

}  // namespace portable
