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

constexpr const char* kOp = "aten::native_group_norm.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct GroupNormCall {
  const rt::Tensor* input;
  const rt::Tensor* weight;  // or nullptr
  const rt::Tensor* bias;    // or nullptr
  rt::Tensor* out;
  rt::Tensor* mean;
  rt::Tensor* rstd;
  int64_t n, c, hxw, groups;
  double eps;
};

// Per (sample, group): mean and biased variance of its channels' elements
// (two passes in double), then y = (x - mean) * rstd * weight + bias.
template <typename T>
void group_norm(const GroupNormCall& c) {
  const T* x = c.input->data_as<const T>();
  T* y = c.out->data_as<T>();
  T* mean_data = c.mean->data_as<T>();
  T* rstd_data = c.rstd->data_as<T>();
  const ElementOffsets at_x(c.input), at_y(c.out), at_mean(c.mean), at_rstd(c.rstd), at_w(c.weight),
      at_b(c.bias);
  const int64_t channels = c.c / c.groups;
  const int64_t size = channels * c.hxw;  // elements of one group
  for (int64_t row = 0; row < c.n * c.groups; ++row) {
    const int64_t base = row * size;
    if (size == 0) {
      // No elements: ExecuTorch writes mean 0 and rstd NaN.
      mean_data[at_mean(row)] = T(0);
      rstd_data[at_rstd(row)] = rt::value_cast<T>(NAN);
      continue;
    }
    double sum = 0;
    for (int64_t i = 0; i < size; ++i) sum += rt::value_cast<double>(x[at_x(base + i)]);
    const double mean = sum / static_cast<double>(size);
    double squares = 0;
    for (int64_t i = 0; i < size; ++i) {
      const double d = rt::value_cast<double>(x[at_x(base + i)]) - mean;
      squares += d * d;
    }
    const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(size) + c.eps);
    const int64_t first_channel = (row % c.groups) * channels;
    for (int64_t ch = 0; ch < channels; ++ch) {
      const int64_t k = first_channel + ch;
      const double w =
          c.weight != nullptr ? rt::value_cast<double>(c.weight->data_as<const T>()[at_w(k)]) : 1.0;
      const double b =
          c.bias != nullptr ? rt::value_cast<double>(c.bias->data_as<const T>()[at_b(k)]) : 0.0;
      const double scale = rstd * w, shift = b - mean * scale;
      for (int64_t i = ch * c.hxw; i < (ch + 1) * c.hxw; ++i) {
        y[at_y(base + i)] =
            rt::value_cast<T>(rt::value_cast<double>(x[at_x(base + i)]) * scale + shift);
      }
    }
    mean_data[at_mean(row)] = rt::value_cast<T>(mean);
    rstd_data[at_rstd(row)] = rt::value_cast<T>(rstd);
  }
}

}  // namespace

// native_group_norm.out(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group,
//     float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))
void native_group_norm_out(rt::KernelContext& context, const rt::Tensor& input,
                           rt::Optional<rt::Tensor> weight, rt::Optional<rt::Tensor> bias,
                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
                           rt::Tensor& out0, rt::Tensor& out1, rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  GroupNormCall c{&input, weight.get(), bias.get(), &out0, &out1, &out2, N, C, HxW, group, eps};
  if (!Dtypes::check(context, kOp, input.dtype())) return;
  const rt::ScalarType dtype = input.dtype();
  if (input.dim() < 2) return in.fail("input must have a batch and a channel dim");
  // N and C are sizes of input, so N * C cannot overflow; HxW is checked by division.
  const int64_t nc = N * C;
  if (input.size(0) != N || input.size(1) != C || HxW < 0 ||
      (nc == 0 ? input.numel() != 0 : input.numel() % nc != 0 || input.numel() / nc != HxW)) {
    return in.fail("N, C and HxW must match input's shape");
  }
  if (group <= 0 || group > INT32_MAX || C % group != 0)
    return in.fail("group must be positive and divide C");
  const rt::Tensor* const params[] = {c.weight, c.bias};
  for (const rt::Tensor* p : params) {
    if (p == nullptr) continue;
    if (p->dtype() != dtype) return in.fail("weight and bias must have input's dtype");
    if (p->dim() != 1 || p->size(0) != C)
      return in.fail("weight and bias must have one entry per channel");
  }
  if (out0.dtype() != dtype || out1.dtype() != dtype || out2.dtype() != dtype) {
    return in.fail("out0, out1 and out2 must have input's dtype");
  }
  const int32_t stat_sizes[2] = {static_cast<int32_t>(N), static_cast<int32_t>(group)};
  if (!resize_out(in, out0, input.sizes().data(), input.dim()) ||
      !resize_out(in, out1, stat_sizes, 2) || !resize_out(in, out2, stat_sizes, 2)) {
    return;
  }
  Dtypes::run(context, kOp, dtype, [&](auto tag) { group_norm<typename decltype(tag)::type>(c); });
}

}  // namespace portable
