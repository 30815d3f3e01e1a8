#include <cmath>
#include <cstdint>

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
using Dtypes = rt::DtypeDispatch<rt::kFloatingDtypes.bits(), kSelected.bits()>;

// The tensors of one call; weight and bias may be nullptr.
struct BatchNormCall {
  const rt::Tensor* input;
  const rt::Tensor* params[4];  // weight, bias, running_mean, running_var
  rt::Tensor* out;
  int64_t batch, channels, inner;
  double eps;
};

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
void _native_batch_norm_legit_no_training_out(rt::KernelContext& context, const rt::Tensor& input,
                                              rt::Optional<rt::Tensor> weight, rt::Optional<rt::Tensor> bias,
                                              const rt::Tensor& running_mean, const rt::Tensor& running_var,
                                              double /*momentum*/, double eps, rt::Tensor& out0, rt::Tensor& out1,
                                              rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  BatchNormCall c;
  c.input = &input;
  c.params[0] = weight.get();
  c.params[1] = bias.get();
  c.params[2] = &running_mean;
  c.params[3] = &running_var;
  c.out = &out0;
  rt::Tensor* save_mean = &out1;
  rt::Tensor* save_invstd = &out2;
  if (!Dtypes::check(context, kOp, c.input->dtype())) return;
  c.eps = eps;
  const rt::ScalarType dtype = c.input->dtype();
  const int rank = c.input->dim();
  if (rank < 2) return in.fail("input must have a batch and a channel dim");
  c.batch = c.input->size(0);
  c.channels = c.input->size(1);
  c.inner = 1;
  for (int d = 2; d < rank; ++d) c.inner *= c.input->size(d);
  for (const rt::Tensor* p : c.params) {
    if (p == nullptr) continue;
    if (p->dtype() != dtype) return in.fail("weight, bias, running_mean and running_var must have input's dtype");
    if (p->dim() != 1 || p->size(0) != c.channels) return in.fail("parameters must have one entry per channel");
  }
  if (c.out->dtype() != dtype || save_mean->dtype() != dtype || save_invstd->dtype() != dtype) {
    return in.fail("out0, out1 and out2 must have input's dtype");
  }
  // Without training nothing is saved: out1 and out2 are empty, as torch.
  const int32_t empty[1] = {0};
  if (!resize_out(in, *c.out, c.input->sizes().data(), rank) || !resize_out(in, *save_mean, empty, 1) ||
      !resize_out(in, *save_invstd, empty, 1)) {
    return;
  }
  if (c.input->numel() == 0) return;
  Dtypes::run(context, kOp, dtype, [&](auto tag) { batch_norm<typename decltype(tag)::type>(c); });
}

}  // namespace portable
