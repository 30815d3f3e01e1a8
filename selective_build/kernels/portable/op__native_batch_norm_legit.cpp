#include <cmath>
#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOut = "aten::_native_batch_norm_legit.out";
constexpr const char* kNoStats = "aten::_native_batch_norm_legit.no_stats_out";
using DtypesOut =
    rt::DtypeDispatch<kernels::declared_dtypes(kOut).bits(), rt::selected_dtypes(kOut).bits()>;
using DtypesNoStats = rt::DtypeDispatch<kernels::declared_dtypes(kNoStats).bits(),
                                        rt::selected_dtypes(kNoStats).bits()>;

// One call: input (N, C, *) normalized per channel. `stats` are the running
// mean and variance (inference), or nullptr: then the batch's own statistics
// are computed and written to save_mean and save_invstd.
struct LegitCall {
  const rt::Tensor* input;
  const rt::Tensor* weight;    // or nullptr
  const rt::Tensor* bias;      // or nullptr
  const rt::Tensor* stats[2];  // running_mean, running_var; or nullptr
  rt::Tensor* out;
  rt::Tensor* save_mean;
  rt::Tensor* save_invstd;
  int64_t batch, channels, inner;
  double eps;
};

template <typename T>
double element(const rt::Tensor* t, int64_t i, double fallback) {
  return t == nullptr ? fallback : rt::value_cast<double>(t->data_as<const T>()[i * t->stride(0)]);
}

template <typename T>
void batch_norm(const LegitCall& c) {
  const T* x = c.input->data_as<const T>();
  T* y = c.out->data_as<T>();
  const ElementOffsets at_x(c.input), at_y(c.out);
  const double count = static_cast<double>(c.batch * c.inner);
  for (int64_t ch = 0; ch < c.channels; ++ch) {
    double mean = 0, invstd = 0;
    if (c.stats[0] != nullptr) {
      mean = element<T>(c.stats[0], ch, 0);
      invstd = 1.0 / std::sqrt(element<T>(c.stats[1], ch, 0) + c.eps);
    } else {
      // The batch's biased variance, two passes in double.
      double sum = 0, squares = 0;
      for (int64_t n = 0; n < c.batch; ++n) {
        const int64_t base = (n * c.channels + ch) * c.inner;
        for (int64_t i = 0; i < c.inner; ++i) sum += rt::value_cast<double>(x[at_x(base + i)]);
      }
      mean = sum / count;
      for (int64_t n = 0; n < c.batch; ++n) {
        const int64_t base = (n * c.channels + ch) * c.inner;
        for (int64_t i = 0; i < c.inner; ++i) {
          const double d = rt::value_cast<double>(x[at_x(base + i)]) - mean;
          squares += d * d;
        }
      }
      invstd = 1.0 / std::sqrt(squares / count + c.eps);
      c.save_mean->data_as<T>()[ch * c.save_mean->stride(0)] = rt::value_cast<T>(mean);
      c.save_invstd->data_as<T>()[ch * c.save_invstd->stride(0)] = rt::value_cast<T>(invstd);
    }
    // y = (x - mean) * invstd * weight + bias, as x * scale + shift.
    const double scale = invstd * element<T>(c.weight, ch, 1.0);
    const double shift = element<T>(c.bias, ch, 0.0) - mean * scale;
    for (int64_t n = 0; n < c.batch; ++n) {
      const int64_t base = (n * c.channels + ch) * c.inner;
      for (int64_t i = 0; i < c.inner; ++i) {
        y[at_y(base + i)] =
            rt::value_cast<T>(rt::value_cast<double>(x[at_x(base + i)]) * scale + shift);
      }
    }
  }
}

// The checks both overloads share; resizes the outs (save_mean and
// save_invstd to (C) with batch statistics, else empty, as torch).
template <typename Dtypes>
void run(const rt::OpContext& in, LegitCall& c) {
  rt::KernelContext& context = in.context();
  const rt::ScalarType dtype = c.input->dtype();
  if (!Dtypes::check(context, in.op(), dtype)) return;
  const int rank = c.input->dim();
  if (rank < 2) return in.fail("input must have a batch and a channel dim");
  c.batch = c.input->size(0);
  c.channels = c.input->size(1);
  c.inner = 1;
  for (int d = 2; d < rank; ++d) c.inner *= c.input->size(d);
  const rt::Tensor* const params[] = {c.weight, c.bias, c.stats[0], c.stats[1]};
  for (const rt::Tensor* p : params) {
    if (p == nullptr) continue;
    if (p->dtype() != dtype)
      return in.fail("weight, bias, running_mean and running_var must have input's dtype");
    if (p->dim() != 1 || p->size(0) != c.channels)
      return in.fail("parameters must have one entry per channel");
  }
  if (c.out->dtype() != dtype || c.save_mean->dtype() != dtype || c.save_invstd->dtype() != dtype) {
    return in.fail("out, save_mean and save_invstd must have input's dtype");
  }
  const bool batch_stats = c.stats[0] == nullptr;
  if (batch_stats && c.batch * c.inner == 0)
    return in.fail("batch statistics need at least one value per channel");
  const int32_t stat_size[1] = {batch_stats ? static_cast<int32_t>(c.channels) : 0};
  if (!resize_out(in, *c.out, c.input->sizes().data(), rank) ||
      !resize_out(in, *c.save_mean, stat_size, 1) ||
      !resize_out(in, *c.save_invstd, stat_size, 1)) {
    return;
  }
  Dtypes::run(context, in.op(), dtype,
              [&](auto tag) { batch_norm<typename decltype(tag)::type>(c); });
}

}  // namespace

// _native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean,
//     Tensor(b!) running_var, bool training, float momentum, float eps, *, Tensor(d!) out, Tensor(e!) save_mean,
//     Tensor(f!) save_invstd) -> (Tensor(d!), Tensor(e!), Tensor(f!))
// Inference only, as ExecuTorch's portable kernel: training would update the
// running statistics, which it refuses.
void _native_batch_norm_legit_out(rt::KernelContext& context, const rt::Tensor& input,
                                  rt::Optional<rt::Tensor> weight, rt::Optional<rt::Tensor> bias,
                                  rt::Tensor& running_mean, rt::Tensor& running_var, bool training,
                                  double /*momentum*/, double eps, rt::Tensor& out,
                                  rt::Tensor& save_mean, rt::Tensor& save_invstd) {
  const rt::OpContext in(context, kOut);
  if (training)
    return in.fail("training mode is not supported (running statistics are not updated)");
  LegitCall c{&input,
              weight.get(),
              bias.get(),
              {&running_mean, &running_var},
              &out,
              &save_mean,
              &save_invstd,
              0,
              0,
              0,
              eps};
  run<DtypesOut>(in, c);
}

// _native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight, Tensor? bias, bool training,
//     float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd)
//     -> (Tensor(a!), Tensor(b!), Tensor(c!))
// Without running statistics the batch's own are used whatever `training`
// says, as torch and ExecuTorch do.
void _native_batch_norm_legit_no_stats_out(rt::KernelContext& context, const rt::Tensor& input,
                                           rt::Optional<rt::Tensor> weight,
                                           rt::Optional<rt::Tensor> bias, bool /*training*/,
                                           double /*momentum*/, double eps, rt::Tensor& out,
                                           rt::Tensor& save_mean, rt::Tensor& save_invstd) {
  const rt::OpContext in(context, kNoStats);
  LegitCall c{
      &input, weight.get(), bias.get(), {nullptr, nullptr}, &out, &save_mean, &save_invstd, 0, 0,
      0,      eps};
  run<DtypesNoStats>(in, c);
}

}  // namespace portable
