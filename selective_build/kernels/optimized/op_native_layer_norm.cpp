#include <cmath>
#include <cstdint>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/loops.h"
#include "kernels/optimized/elem/vmath.h"
#include "kernels/portable/util/nn_layer_norm.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::native_layer_norm.out";
using Dtypes = FloatDtypes<&kOp>;

bool contiguous_or_absent(const rt::Tensor* t) { return t == nullptr || t->is_contiguous(); }

// The sum of f(x[i]) over [0, n) on VecWide in two running sums (two chains of adds in
// flight: Note [Softmax rows]); f(fill) must be 0, it fills the tail's missing lanes.
template <typename F>
float row_total(const float* x, int64_t n, float fill, F f) {
  constexpr int64_t kStep = kWideLanes;
  VecWide sum0{};
  VecWide sum1{};
  int64_t i = 0;
  for (; i + 2 * kStep <= n; i += 2 * kStep) {
    sum0 += f(load<VecWide>(x + i));
    sum1 += f(load<VecWide>(x + i + kStep));
  }
  for (; i + kStep <= n; i += kStep) sum0 += f(load<VecWide>(x + i));
  if (i < n) sum1 += f(load_partial<VecWide>(x + i, n - i, fill));
  float lanes[kWideLanes];
  store(lanes, sum0 + sum1);
  float total = 0.0f;
  for (float lane : lanes) total += lane;
  return total;
}

// Rows [first, last) of a planned call with every tensor contiguous: portable's formulas
// (two passes for the mean and variance, then (x - mean) * rstd * weight + bias) on vectors.
void layer_norm_range(const portable::LayerNormCall& c, int64_t first, int64_t last) {
  const int64_t n = c.n;
  const float* w = c.weight != nullptr ? c.weight->data_as<const float>() : nullptr;
  const float* b = c.bias != nullptr ? c.bias->data_as<const float>() : nullptr;
  for (int64_t r = first; r < last; ++r) {
    const float* x = c.input->data_as<const float>() + r * n;
    float* y = c.out->data_as<float>() + r * n;
    const float mean = row_total(x, n, 0.0f, [](VecWide v) { return v; }) / static_cast<float>(n);
    const float squares = row_total(x, n, mean, [mean](VecWide v) {
      const VecWide d = v - mean;
      return d * d;
    });
    const float rstd =
        1.0f / std::sqrt(squares / static_cast<float>(n) + static_cast<float>(c.eps));
    int64_t i = 0;
    const auto normalise = [&](VecWide v, int64_t at, int64_t lanes) {
      v = (v - mean) * rstd;
      if (w != nullptr)
        v *= lanes == kWideLanes ? load<VecWide>(w + at)
                                 : load_partial<VecWide>(w + at, lanes, 0.0f);
      if (b != nullptr)
        v += lanes == kWideLanes ? load<VecWide>(b + at)
                                 : load_partial<VecWide>(b + at, lanes, 0.0f);
      return v;
    };
    for (; i + kWideLanes <= n; i += kWideLanes)
      store(y + i, normalise(load<VecWide>(x + i), i, kWideLanes));
    if (i < n)
      store_partial(y + i, normalise(load_partial<VecWide>(x + i, n - i, 0.0f), i, n - i), n - i);
    c.mean->data_as<float>()[r] = mean;
    c.rstd->data_as<float>()[r] = rstd;
  }
}

// Every row, split over the threads (Note [Split elementwise]: each row is computed whole).
void layer_norm_rows(const portable::LayerNormCall& c) {
  split_rows(c.rows, c.n, [&](int64_t first, int64_t last) { layer_norm_range(c, first, last); });
}

}  // namespace

// native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps, *,
//                       Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
// portable's checks and plan; the vector rows when every tensor is contiguous,
// portable's rows (any layout) otherwise.
void native_layer_norm_out(rt::KernelContext& context, const rt::Tensor& input,
                           rt::IntList normalized_shape, rt::Optional<rt::Tensor> weight,
                           rt::Optional<rt::Tensor> bias, double eps, rt::Tensor& out0,
                           rt::Tensor& out1, rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  portable::LayerNormCall c;
  if (!portable::plan_native_layer_norm<Dtypes>(in, input, normalized_shape, weight, bias, eps,
                                                out0, out1, out2, &c)) {
    return;
  }
  const rt::Tensor* const tensors[] = {c.input, c.weight, c.bias, c.out, c.mean, c.rstd};
  bool contiguous = true;
  for (const rt::Tensor* t : tensors) contiguous = contiguous && contiguous_or_absent(t);
  if (contiguous) return layer_norm_rows(c);
  portable::layer_norm<float>(c);
}

}  // namespace optimized
