#pragma once

#include <cstdint>
#include <cstring>

// Eight floats at a time with the compiler's vector extensions (SSE, AVX or NEON, whichever
// the toolchain targets), for the row copies and gathers of convolution and pooling.
namespace optimized {
namespace conv {

// Loaded and stored unaligned.
typedef float Vec8 __attribute__((vector_size(32)));
inline Vec8 load8(const float* src) {
  Vec8 v;
  std::memcpy(&v, src, sizeof v);
  return v;
}
inline void store8(float* dst, const Vec8& v) { std::memcpy(dst, &v, sizeof v); }

// even[j] = src[2 j], odd[j] = src[2 j + 1] for the pairs of src[0, count), eight pairs at a
// time, the last odd element (count odd) included: a row split into the two phases of
// stride 2.
inline void split_pairs(const float* src, int64_t count, float* even, float* odd) {
  int64_t j = 0;
  for (; 2 * j + 16 <= count; j += 8) {
    const Vec8 a = load8(src + 2 * j), b = load8(src + 2 * j + 8);
    store8(even + j, __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14));
    store8(odd + j, __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15));
  }
  for (; 2 * j < count; ++j) {
    even[j] = src[2 * j];
    if (2 * j + 1 < count) odd[j] = src[2 * j + 1];
  }
}

// dst[j] = src[2 j] for j in [0, count): a stride-2 im2col row (the stems of ResNet and
// MobileNetV2 spent most of their time in this copy as a scalar loop). Reads only src[0]
// to src[2 (count - 1)]: the vector loop stops while a load's last lane is inside.
inline void take_even(const float* src, int64_t count, float* dst) {
  int64_t j = 0;
  for (; 2 * j + 16 <= 2 * count - 1; j += 8) {
    const Vec8 a = load8(src + 2 * j), b = load8(src + 2 * j + 8);
    store8(dst + j, __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14));
  }
  for (; j < count; ++j) dst[j] = src[2 * j];
}

}  // namespace conv
}  // namespace optimized
