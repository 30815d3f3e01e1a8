#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/optimized/elem/unary.h"
#include "kernels/optimized/elem/vmath.h"
#include "runtime/kernel/epilogue.h"

// The optimized kernels' side of Note [Fused epilogue] (runtime/kernel/epilogue.h): a bias
// and an activation applied to a run of output that was just computed. Each activation is
// computed with the operations, in the order, of its own optimized kernel (op_relu.cpp,
// op_hardtanh.cpp, op_hardswish.cpp, op_sigmoid.cpp, and op_mul.cpp's x * sigmoid(x)), so
// fusing changes no bit of it.
namespace optimized {

// V: optimized::Vec, or the GEMM's wider vector (opt::sgemm::Vec) for an epilogue finished in
// its registers; lane by lane the same operations, so the same bits.
template <rt::EpilogueKind kKind, typename V>
inline V activate(V x, float lo, float hi) {
  if constexpr (kKind == rt::EpilogueKind::Relu) return x <= 0.0f ? V{} : x;
  if constexpr (kKind == rt::EpilogueKind::Clamp) return clamp_vec(x, lo, hi);
  if constexpr (kKind == rt::EpilogueKind::Hardswish)
    return x * clamp_vec(x + 3.0f, 0.0f, 6.0f) / 6.0f;
  if constexpr (kKind == rt::EpilogueKind::Sigmoid) return sigmoid_approx(x);
  if constexpr (kKind == rt::EpilogueKind::Silu) return x * sigmoid_approx(x);
  return x;
}

// For each of `vectors` vectors of type V at `data`: store(k, activate(before(k, x))), each
// vector in a register from its load to its store. One choice of the activation for all of
// them: their chains (sigmoid's is some twenty operations long) are independent, so the
// core overlaps them, where a choice per vector waits for each in turn.
template <typename V, typename Before, typename Store>
inline void activate_stores(const float* data, int64_t vectors, const rt::Epilogue& e,
                            const Before& before, const Store& store) {
  auto each = [&](auto kind) {
    for (int64_t k = 0; k < vectors; ++k) {
      V x;
      memcpy(&x, data + k * (sizeof(V) / sizeof(float)), sizeof x);
      store(k, activate<decltype(kind)::value, V>(before(k, x), e.lo, e.hi));
    }
  };
  using K = rt::EpilogueKind;
  switch (e.kind) {
    case K::None:
      return each(std::integral_constant<K, K::None>{});
    case K::Relu:
      return each(std::integral_constant<K, K::Relu>{});
    case K::Clamp:
      return each(std::integral_constant<K, K::Clamp>{});
    case K::Hardswish:
      return each(std::integral_constant<K, K::Hardswish>{});
    case K::Sigmoid:
      return each(std::integral_constant<K, K::Sigmoid>{});
    case K::Silu:
      return each(std::integral_constant<K, K::Silu>{});
  }
}

// Note [Activation after the store]
// The depthwise kernels apply hardswish, sigmoid and SiLU (some twenty operations for each
// vector) to their outputs once they are stored, in one pass over each output row (channels
// last) or plane (NCHW) while it is in cache, rather than to each group's few accumulators
// before their store. There, each group's vectors went through a call that clobbered every vector
// register, reloaded the activation's constants and ran too few chains to overlap: SiLU
// cost 1.0 ns an output against 0.6 in a plain pass (Zen 3, AVX2). The same operations on
// the same sums, so the same bits; outputs a kernel computes twice (a last group, block or
// vector of channels overlapping the one before) are stored again before the pass, so each
// output is activated once. Relu and clamp (a few operations) stay in registers.
inline bool activates_after_store(const rt::Epilogue& e) {
  return e.kind == rt::EpilogueKind::Hardswish || e.kind == rt::EpilogueKind::Sigmoid ||
         e.kind == rt::EpilogueKind::Silu;
}

// `vectors` vectors of type V at `data` through the epilogue's activation, in place.
template <typename V>
inline void activate_all(float* data, int64_t vectors, const rt::Epilogue& e) {
  activate_stores<V>(
      data, vectors, e, [](int64_t, V x) { return x; },
      [&](int64_t k, V x) { memcpy(data + k * (sizeof(V) / sizeof(float)), &x, sizeof x); });
}

// y[i] = activation(y[i] + bias) for i in [0, count); no addition without kBias (it would
// turn -0 into +0).
template <rt::EpilogueKind kKind, bool kBias>
inline void finish_run(float* y, int64_t count, float bias, float lo, float hi) {
  auto f = [&](Vec x) { return activate<kKind, Vec>(kBias ? x + bias : x, lo, hi); };
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) store(y + i, f(load(y + i)));
  if (i < count) store_partial(y + i, f(load_partial(y + i, count - i, 0.0f)), count - i);
}

template <rt::EpilogueKind kKind>
inline void finish_rows_as(float* y, int64_t rows, int64_t width, int64_t stride, const float* bias,
                           int64_t bias_stride, float lo, float hi) {
  for (int64_t r = 0; r < rows; ++r) {
    if (bias != nullptr) {
      finish_run<kKind, true>(y + r * stride, width, bias[r * bias_stride], lo, hi);
    } else {
      finish_run<kKind, false>(y + r * stride, width, 0.0f, lo, hi);
    }
  }
}

// Rows [0, rows) of `width` floats, `stride` apart: row r gets bias[r * bias_stride] (none
// when bias is null), then the epilogue. With neither, nothing to do.
inline void finish_rows(float* y, int64_t rows, int64_t width, int64_t stride, const float* bias,
                        int64_t bias_stride, const rt::Epilogue& e) {
  using K = rt::EpilogueKind;
  switch (e.kind) {
    case K::None:
      if (bias != nullptr) finish_rows_as<K::None>(y, rows, width, stride, bias, bias_stride, 0, 0);
      break;
    case K::Relu:
      finish_rows_as<K::Relu>(y, rows, width, stride, bias, bias_stride, 0, 0);
      break;
    case K::Clamp:
      finish_rows_as<K::Clamp>(y, rows, width, stride, bias, bias_stride, e.lo, e.hi);
      break;
    case K::Hardswish:
      finish_rows_as<K::Hardswish>(y, rows, width, stride, bias, bias_stride, 0, 0);
      break;
    case K::Sigmoid:
      finish_rows_as<K::Sigmoid>(y, rows, width, stride, bias, bias_stride, 0, 0);
      break;
    case K::Silu:
      finish_rows_as<K::Silu>(y, rows, width, stride, bias, bias_stride, 0, 0);
      break;
  }
}

// The epilogue over a tile of a matrix product: rows of `cols` elements `col_stride` apart.
inline void finish_tile(float* data, int64_t rows, int64_t cols, int64_t row_stride,
                        int64_t col_stride, const rt::Epilogue& e) {
  for (int64_t i = 0; i < rows; ++i) {
    float* row = data + i * row_stride;
    if (col_stride == 1) {
      finish_rows(row, 1, cols, 0, nullptr, 0, e);
    } else {
      for (int64_t j = 0; j < cols; ++j) finish_rows(row + j * col_stride, 1, 1, 0, nullptr, 0, e);
    }
  }
}

}  // namespace optimized
