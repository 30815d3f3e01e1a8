#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// native_layer_norm over the trailing dims `normalized_shape` names: out0 the
// normalised input, out1 and out2 each row's mean and 1 / std (shared with the
// optimized library, which runs its own loop for contiguous Float calls).
struct LayerNormCall {
  const rt::Tensor* input;
  const rt::Tensor* weight;  // or nullptr
  const rt::Tensor* bias;    // or nullptr
  rt::Tensor* out;
  rt::Tensor* mean;
  rt::Tensor* rstd;
  int64_t rows;  // positions outside the normalized dims
  int64_t n;     // elements normalized together
  double eps;
};

// The rows of a planned call, any layout (ElementOffsets), computed in opmath_t<T>.
template <typename T>
void layer_norm(const LayerNormCall& c) {
  using M = opmath_t<T>;
  const T* x = c.input->data_as<const T>();
  const T* w = c.weight != nullptr ? c.weight->data_as<const T>() : nullptr;
  const T* b = c.bias != nullptr ? c.bias->data_as<const T>() : nullptr;
  T* y = c.out->data_as<T>();
  const ElementOffsets at_x(c.input), at_y(c.out), at_mean(c.mean), at_rstd(c.rstd), at_w(c.weight),
      at_b(c.bias);
  for (int64_t r = 0; r < c.rows; ++r) {
    const int64_t base = r * c.n;
    M sum = M(0);
    for (int64_t i = 0; i < c.n; ++i) sum += static_cast<M>(x[at_x(base + i)]);
    const M mean = sum / static_cast<M>(c.n);
    M squares = M(0);
    for (int64_t i = 0; i < c.n; ++i) {
      const M d = static_cast<M>(x[at_x(base + i)]) - mean;
      squares += d * d;
    }
    const M rstd = M(1) / std::sqrt(squares / static_cast<M>(c.n) + static_cast<M>(c.eps));
    for (int64_t i = 0; i < c.n; ++i) {
      M v = (static_cast<M>(x[at_x(base + i)]) - mean) * rstd;
      if (w != nullptr) v *= static_cast<M>(w[at_w(i)]);
      if (b != nullptr) v += static_cast<M>(b[at_b(i)]);
      y[at_y(base + i)] = rt::value_cast<T>(v);
    }
    c.mean->data_as<T>()[at_mean(r)] = rt::value_cast<T>(mean);
    c.rstd->data_as<T>()[at_rstd(r)] = rt::value_cast<T>(rstd);
  }
}

// Reports `what` and gives false, for plan_layer_norm's early returns.
inline bool layer_norm_fail(const rt::OpContext& in, const char* what) {
  in.fail(what);
  return false;
}

// Checks a call (input's dtype already checked against the op's dtypes),
// resizes the outs and plans it into `c`. False when it failed (reported).
__attribute__((noinline)) inline bool plan_layer_norm(
    const rt::OpContext& in, const rt::Tensor& input, rt::IntList normalized_shape,
    rt::Optional<rt::Tensor> weight, rt::Optional<rt::Tensor> bias, double eps, rt::Tensor& out0,
    rt::Tensor& out1, rt::Tensor& out2, LayerNormCall* call) {
  LayerNormCall& c = *call;
  c.input = &input;
  const rt::IntList shape = normalized_shape;
  c.weight = weight.get();
  c.bias = bias.get();
  c.out = &out0;
  c.mean = &out1;
  c.rstd = &out2;
  c.eps = eps;
  const rt::ScalarType dtype = c.input->dtype();
  const int rank = c.input->dim();
  const int k = static_cast<int>(shape.size());
  if (k < 1 || k > rank)
    return layer_norm_fail(in, "normalized_shape must name 1 to input.dim() trailing dims");
  c.n = 1;
  for (int i = 0; i < k; ++i) {
    if (shape[i] != c.input->size(rank - k + i))
      return layer_norm_fail(in, "normalized_shape must match input's trailing sizes");
    c.n *= shape[i];
  }
  const rt::Tensor* const params[] = {c.weight, c.bias};
  for (const rt::Tensor* p : params) {
    if (p == nullptr) continue;
    if (p->dtype() != dtype) return layer_norm_fail(in, "weight and bias must have input's dtype");
    if (p->numel() != c.n || p->dim() != k)
      return layer_norm_fail(in, "weight and bias must have normalized_shape");
  }
  if (c.out->dtype() != dtype || c.mean->dtype() != dtype || c.rstd->dtype() != dtype) {
    return layer_norm_fail(in, "out0, out1 and out2 must have input's dtype");
  }
  int32_t stat_sizes[rt::Tensor::kMaxDims];
  c.rows = 1;
  for (int d = 0; d < rank; ++d) {
    stat_sizes[d] = d < rank - k ? c.input->size(d) : 1;
    c.rows *= stat_sizes[d];
  }
  if (!resize_out(in, *c.out, c.input->sizes().data(), rank) ||
      !resize_out(in, *c.mean, stat_sizes, rank) || !resize_out(in, *c.rstd, stat_sizes, rank)) {
    return false;
  }
  if (c.input->numel() == 0) c.rows = 0;
  return true;
}

// The checks of native_layer_norm (Note [Shared kernel checks], shape_copy.h): input's dtype
// one of Dtypes (the calling library's), then plan_layer_norm.
template <typename Dtypes>
bool plan_native_layer_norm(const rt::OpContext& in, const rt::Tensor& input,
                            rt::IntList normalized_shape, rt::Optional<rt::Tensor> weight,
                            rt::Optional<rt::Tensor> bias, double eps, rt::Tensor& out0,
                            rt::Tensor& out1, rt::Tensor& out2, LayerNormCall* call) {
  return Dtypes::check(in.context(), in.op(), input.dtype()) &&
         plan_layer_norm(in, input, normalized_shape, weight, bias, eps, out0, out1, out2, call);
}

}  // namespace portable
