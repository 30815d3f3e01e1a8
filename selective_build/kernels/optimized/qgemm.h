#pragma once

// The optimized library's int8 GEMM: c = requantize(a @ b) with 8-bit activations a (rows x
// depth, Char or Byte), 8-bit weights b (depth x cols, Char, zero point 0), int32 sums, for
// the quantized calls of Note [Quantized calls at load] (runtime/executor/quantize_calls.h).
//
// Note [int8 GEMM]
// b is packed once, at load, into panels of kQNR columns: for each group of 4 depth steps,
// the panel's kQNR columns' 4 weights side by side (zeros past the matrix's edge), with each
// column's weight sum. a is packed per call into this thread's scratch, kQK-padded rows of
// the microkernel's operand type. (A convolution swaps the two: Note [Channel-major
// convolution].) The microkernel keeps kQMR x kQNR int32 sums in registers
// over the whole depth, by instruction set (the toolchain's choice, as Note [sgemm
// microkernel]):
//   AVX-512 VNNI: vpdpbusd (u8 x s8, 4 products summed into each int32 lane), kQMR 8 x kQNR 16;
//     a is stored as u8 (a Char value + 128, corrected by 128 x the column's weight sum);
//   AVX-512 without VNNI: a widened to s16, vpmaddwd on the panel's bytes widened to s16 (2
//     products summed per lane, no saturation), kQMR 8 x kQNR 16;
//   AVX2: the same on 256 bits, kQMR 4 x kQNR 8;
//   anything else: the same sums in plain C++, kQMR 4 x kQNR 8.
// Every path computes sum_p (a[i][p] - a_zero) * b[p][j] exactly in int32 (|sum| < 2^31 for
// depth < 2^16), so all three give the same integers.
//
// Note [Requantization]
// The epilogue turns a sum into the quantized out as the exported program's float chain
// (dequantize, the float product plus bias, an optional relu, quantize) would:
//   y = float(sum) * (a_scale * b_scale[j]) + bias[j],
//   q = clamp(zero_point + nearbyint(y * (1 / out_scale)), lo, hi)
// with Note [Quantized rounding]'s order and rounding (kernels/quantized/quant_util.h), [lo,
// hi] the out's range narrowed by an activation (Note [Quantized calls at load]). It differs
// from the float chain only where that chain's float sum, rounded in another order than the
// exact integer one, lands on the other side of a rounding boundary: then q is one step away
// (what XNNPACK's integer requantization also gives). The rounding is (v + 1.5 * 2^23) -
// 1.5 * 2^23 on v clamped to the out's range first (a clamp to integer bounds commutes with
// rounding): nearbyint's half-to-even for |v| < 2^22, and a loop the compiler vectorizes.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/scratch.h"
#include "kernels/quantized/quant_loops.h"

#if defined(__SSE4_1__)
#include <immintrin.h>
#endif

namespace opt {
namespace qgemm {

#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
constexpr int kQMR = 8, kQNR = 16;
using AValue = uint8_t;  // a Char value is stored + 128
#elif defined(__AVX512BW__)
constexpr int kQMR = 8, kQNR = 16;
using AValue = int16_t;
#else
constexpr int kQMR = 4, kQNR = 8;
using AValue = int16_t;
#endif
constexpr int kQK = 4;  // depth steps per group

inline int64_t round_up(int64_t n, int64_t to) { return (n + to - 1) / to * to; }

// What pack_a adds to a value of `In` (int8_t or uint8_t) to store it as an AValue.
template <typename In>
constexpr int32_t stored_offset() {
  return static_cast<In>(-1) < 0 && static_cast<AValue>(-1) > 0 ? 128 : 0;
}

// How the sums become the out: Note [Requantization].
struct Requantize {
  const float* multiplier;  // a_scale * b_scale[j], per column
  const float* bias;        // per column
  float inv_scale;          // 1.0f / float(out_scale)
  float zero_point;
  float lo, hi;  // the clamp, relative to the zero point: quant_min - zero_point, ...
};

// b packed once: Note [int8 GEMM].
struct PackedB {
  int64_t depth, cols, padded_depth;
  const int8_t* panels;  // panels(cols) x padded_depth x kQNR bytes
  const int32_t* sums;   // per column (padded to whole panels), sum_p b[p][j]
};

inline int64_t packed_b_bytes(int64_t depth, int64_t cols) {
  return round_up(cols, kQNR) * round_up(depth, kQK);
}

// Packs w (cols x depth, row-major: a Linear's weight, a convolution's [out][in * kh * kw])
// as b = w transposed into `panels` (packed_b_bytes) and `sums` (round_up(cols, kQNR)).
inline void pack_b(const int8_t* w, int64_t depth, int64_t cols, int8_t* panels, int32_t* sums) {
  const int64_t padded = round_up(depth, kQK);
  for (int64_t j0 = 0; j0 < cols; j0 += kQNR) {
    int8_t* panel = panels + j0 * padded;
    for (int64_t j = 0; j < kQNR; ++j) {
      int32_t sum = 0;
      for (int64_t p = 0; p < padded; ++p) {
        const int8_t v = j0 + j < cols && p < depth ? w[(j0 + j) * depth + p] : 0;
        panel[(p / kQK) * kQNR * kQK + j * kQK + p % kQK] = v;
        sum += v;
      }
      sums[j0 + j] = sum;
    }
  }
}

// One tile: sums[i][j] over the padded depth of a's kQMR rows (kQK-padded, `a_stride` apart)
// and one panel of b.
inline void microkernel(int64_t groups, const AValue* a, int64_t a_stride, const int8_t* b,
                        int32_t (&sums)[kQMR][kQNR]) {
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
  __m512i acc[kQMR];
#pragma GCC unroll 8  // (not a memset: see channel_tile)
  for (int i = 0; i < kQMR; ++i) acc[i] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g) {
    const __m512i bv = _mm512_loadu_si512(b + g * kQNR * kQK);
#pragma GCC unroll 8
    for (int i = 0; i < kQMR; ++i) {
      int32_t four;
      std::memcpy(&four, a + i * a_stride + g * kQK, 4);
      acc[i] = _mm512_dpbusd_epi32(acc[i], _mm512_set1_epi32(four), bv);
    }
  }
  for (int i = 0; i < kQMR; ++i) _mm512_storeu_si512(sums[i], acc[i]);
#elif defined(__AVX512BW__)
  // Lanes of lo: columns 0-7's (p 0-1, p 2-3) pairs; of hi: columns 8-15's.
  __m512i lo[kQMR], hi[kQMR];
  for (int i = 0; i < kQMR; ++i) lo[i] = hi[i] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g) {
    const __m512i bytes = _mm512_loadu_si512(b + g * kQNR * kQK);
    const __m512i b_lo = _mm512_cvtepi8_epi16(_mm512_castsi512_si256(bytes));
    const __m512i b_hi = _mm512_cvtepi8_epi16(_mm512_extracti64x4_epi64(bytes, 1));
#pragma GCC unroll 8
    for (int i = 0; i < kQMR; ++i) {
      int64_t four;
      std::memcpy(&four, a + i * a_stride + g * kQK, 8);
      const __m512i av = _mm512_set1_epi64(four);
      lo[i] = _mm512_add_epi32(lo[i], _mm512_madd_epi16(b_lo, av));
      hi[i] = _mm512_add_epi32(hi[i], _mm512_madd_epi16(b_hi, av));
    }
  }
  for (int i = 0; i < kQMR; ++i) {
    // Each pair summed into its low lane, then the low lanes in order.
    const __m512i lo_pairs = _mm512_add_epi32(lo[i], _mm512_srli_epi64(lo[i], 32));
    const __m512i hi_pairs = _mm512_add_epi32(hi[i], _mm512_srli_epi64(hi[i], 32));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums[i]), _mm512_cvtepi64_epi32(lo_pairs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums[i] + 8), _mm512_cvtepi64_epi32(hi_pairs));
  }
#elif defined(__AVX2__)
  // Lanes of lo: columns 0-3's (p 0-1, p 2-3) pairs; of hi: columns 4-7's.
  __m256i lo[kQMR], hi[kQMR];
  for (int i = 0; i < kQMR; ++i) lo[i] = hi[i] = _mm256_setzero_si256();
  for (int64_t g = 0; g < groups; ++g) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + g * 32));
    const __m256i b_lo = _mm256_cvtepi8_epi16(_mm256_castsi256_si128(bytes));
    const __m256i b_hi = _mm256_cvtepi8_epi16(_mm256_extracti128_si256(bytes, 1));
#pragma GCC unroll 4
    for (int i = 0; i < kQMR; ++i) {
      int64_t four;
      std::memcpy(&four, a + i * a_stride + g * kQK, 8);
      const __m256i av = _mm256_set1_epi64x(four);
      lo[i] = _mm256_add_epi32(lo[i], _mm256_madd_epi16(b_lo, av));
      hi[i] = _mm256_add_epi32(hi[i], _mm256_madd_epi16(b_hi, av));
    }
  }
  for (int i = 0; i < kQMR; ++i) {
    // hadd: [c0 c1 c4 c5 | c2 c3 c6 c7]; the permute puts the columns in order.
    const __m256i pairs = _mm256_hadd_epi32(lo[i], hi[i]);
    const __m256i ordered = _mm256_permute4x64_epi64(pairs, 0xD8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums[i]), ordered);
  }
#else
  for (int i = 0; i < kQMR; ++i) {
    for (int j = 0; j < kQNR; ++j) sums[i][j] = 0;
  }
  for (int64_t g = 0; g < groups; ++g) {
    const int8_t* panel = b + g * kQNR * kQK;
    for (int i = 0; i < kQMR; ++i) {
      const AValue* row = a + i * a_stride + g * kQK;
      for (int j = 0; j < kQNR; ++j) {
        int32_t sum = 0;
        for (int q = 0; q < kQK; ++q) sum += int32_t(row[q]) * panel[j * kQK + q];
        sums[i][j] += sum;
      }
    }
  }
#endif
}

// Note [Channel-major convolution]
// A convolution's out is NCHW: a channel's pixels are one run. Its GEMM is therefore c = W @
// A, W the weight (channels x depth) packed at load as a's rows (pack_rows: kQMR-padded rows
// of padded_depth values, each row's sum of its depth's weights), A the input's windows
// (depth x pixels) packed per call kQNR pixels at a time into one panel laid out as pack_b's
// (each pixel's 4 depth steps side by side: a pointwise layer's 4 channel rows interleaved).
// A tile of c is then kQMR channels x kQNR pixels and each of its rows is stored as one run
// into its plane, with no transposition of the input or of the out. With VNNI the panel is
// vpdpbusd's unsigned operand (a Char value + 128) and the weights its signed one, broadcast;
// otherwise the weights are widened as a is and the panel stays signed (a Byte value - 128),
// so the microkernel is the one above. Either way a panel value is the input's plus
// panel_offset, and sum_p w[i][p] * (x[p][j] - zero) = sums[i][j] - (zero + offset) *
// row_sum[i], exactly.
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
using PanelValue = uint8_t;
using RowValue = int8_t;
#else
using PanelValue = int8_t;
using RowValue = AValue;
#endif

// What a panel adds to a value of `In` (int8_t or uint8_t): Note [Channel-major convolution].
template <typename In>
constexpr int32_t panel_offset() {
  constexpr bool in_signed = static_cast<In>(-1) < 0;
  constexpr bool panel_signed = static_cast<PanelValue>(-1) < 0;
  return in_signed == panel_signed ? 0 : (in_signed ? 128 : -128);
}

// W packed at load: Note [Channel-major convolution].
struct PackedRows {
  int64_t depth, rows, padded_depth;
  const RowValue* values;  // round_up(rows, kQMR) x padded_depth
  const int32_t* sums;     // per row, sum_p w[i][p]
};

inline int64_t packed_rows_bytes(int64_t depth, int64_t rows) {
  return round_up(rows, kQMR) * round_up(depth, kQK) * int64_t{sizeof(RowValue)};
}

// Packs w (rows x depth, row-major) into `values` (packed_rows_bytes, zeros past the edges)
// and `sums` (rows).
inline void pack_rows(const int8_t* w, int64_t depth, int64_t rows, RowValue* values,
                      int32_t* sums) {
  const int64_t padded = round_up(depth, kQK);
  for (int64_t i = 0; i < round_up(rows, kQMR); ++i) {
    int32_t sum = 0;
    for (int64_t p = 0; p < padded; ++p) {
      const int8_t v = i < rows && p < depth ? w[i * depth + p] : 0;
      values[i * padded + p] = v;
      sum += v;
    }
    if (i < rows) sums[i] = sum;
  }
}

#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
// acc + vpdpbusd(u8 a, s8 b), acc tied to its register: with the builtin, GCC 12 copies
// every accumulator at each depth step, and where channel_tile is inlined into a loop of
// tiles it may keep them in `sums` in memory, stored at every step (a benchmark of the
// tiles alone ran at half the speed: 88 against 200 MACs per ns at depth 576).
inline __m512i dpbusd(__m512i acc, __m512i a, __m512i b) {
  __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
  return acc;
}
#endif

// One tile of c = W @ A over the padded depth (`groups` steps of kQK) of W's kQMR rows
// (`w_stride` apart) and one panel of A: finish(i, sums) for each row i, sums its kQNR int32
// sums (with VNNI the row's register itself, not a buffer in memory).
template <typename Finish>
inline void channel_tile(int64_t groups, const RowValue* w, int64_t w_stride,
                         const PanelValue* panel, Finish&& finish) {
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
  __m512i acc[kQMR];
  // Unrolled: GCC made the loop a memset of acc in memory (rep stos before every tile, 4 %
  // of MobileNetV2's samples), and so did a loop over acc after the depth's.
#pragma GCC unroll 8
  for (int i = 0; i < kQMR; ++i) acc[i] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g) {
    const __m512i pixels = _mm512_loadu_si512(panel + g * kQNR * kQK);
#pragma GCC unroll 8
    for (int i = 0; i < kQMR; ++i) {
      int32_t four;
      std::memcpy(&four, w + i * w_stride + g * kQK, 4);
      acc[i] = dpbusd(acc[i], pixels, _mm512_set1_epi32(four));
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < kQMR; ++i) finish(i, acc[i]);
#else
  int32_t sums[kQMR][kQNR];
  microkernel(groups, w, w_stride, panel, sums);
  for (int i = 0; i < kQMR; ++i) finish(i, sums[i]);
#endif
}

#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
inline __m256i dpbusd(__m256i acc, __m256i a, __m256i b) {
  __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
  return acc;
}

// channel_tile for the first 8 pixels of a panel alone (a last panel of at most 8: a 7 x 7
// layer's 49th pixel, a 14 x 14 layer's last 4) on 256-bit vectors, which Zen 4 issues
// twice as often as 512-bit ones; finish gets the 8 sums in a register of 16, zero above.
template <typename Finish>
inline void channel_half_tile(int64_t groups, const RowValue* w, int64_t w_stride,
                              const PanelValue* panel, Finish&& finish) {
  __m256i acc[kQMR];
#pragma GCC unroll 8  // (not a memset: see channel_tile)
  for (int i = 0; i < kQMR; ++i) acc[i] = _mm256_setzero_si256();
  for (int64_t g = 0; g < groups; ++g) {
    const __m256i pixels =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(panel + g * kQNR * kQK));
#pragma GCC unroll 8
    for (int i = 0; i < kQMR; ++i) {
      int32_t four;
      std::memcpy(&four, w + i * w_stride + g * kQK, 4);
      acc[i] = dpbusd(acc[i], pixels, _mm256_set1_epi32(four));
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < kQMR; ++i) finish(i, _mm512_zextsi256_si512(acc[i]));
}
#endif

// Packs `rows` rows of a (8-bit values, row i at a + i * row_stride, step p at p * col_stride)
// into `packed` (kQMR-padded rows of padded_depth values): Note [int8 GEMM].
template <typename In>
void pack_a(const In* a, int64_t rows, int64_t depth, int64_t row_stride, int64_t col_stride,
            int64_t padded_depth, AValue* packed) {
  const int64_t padded_rows = round_up(rows, kQMR);
  for (int64_t i = 0; i < padded_rows; ++i) {
    AValue* to = packed + i * padded_depth;
    if (i >= rows) {
      std::memset(to, 0, sizeof(AValue) * padded_depth);
      continue;
    }
    const In* from = a + i * row_stride;
    for (int64_t p = 0; p < depth; ++p)
      to[p] = static_cast<AValue>(int32_t(from[p * col_stride]) + stored_offset<In>());
    for (int64_t p = depth; p < padded_depth; ++p) to[p] = 0;
  }
}

// Out (i, j) of a tile from its sums: Note [Requantization], a row of kQNR at a time in the
// compiler's vector extensions. `a_zero` is the zero point of a as stored (its own plus
// stored_offset).
template <typename Out>
void finish_tile(const int32_t (&sums)[kQMR][kQNR], int64_t rows, int64_t cols, int64_t j0,
                 const int32_t* col_sums, int32_t a_zero, const Requantize& r, Out* out,
                 int64_t row_stride, int64_t col_stride) {
  typedef float Floats __attribute__((vector_size(4 * kQNR)));
  typedef int32_t Ints __attribute__((vector_size(4 * kQNR)));
  Ints correction;
  Floats multiplier, bias;
  std::memcpy(&correction, col_sums + j0, sizeof correction);
  std::memcpy(&multiplier, r.multiplier + j0, sizeof multiplier);
  std::memcpy(&bias, r.bias + j0, sizeof bias);
  correction = correction * a_zero;
  const Floats lo = Floats{} + r.lo, hi = Floats{} + r.hi, magic = Floats{} + 12582912.0f;
  typedef Out Outs __attribute__((vector_size(kQNR * sizeof(Out))));
  for (int64_t i = 0; i < rows; ++i) {
    Ints sum;
    std::memcpy(&sum, sums[i], sizeof sum);
    // Each product rounded before its sum (Note [No contraction], kernels/quantized/quant_loops.h).
    Floats y = __builtin_convertvector(sum - correction, Floats) * multiplier;
    quantized::keep_rounded(y);
    y = y + bias;
    Floats v = r.inv_scale * y;
    quantized::keep_rounded(v);
    v = v >= lo ? v : lo;  // a NaN (from a NaN bias) clamps to lo, as quantize does
    v = v > hi ? hi : v;
    // Note [Rounding without nearbyint] (kernels/quantized/quant_loops.h); in range, so the conversion is exact.
    const Ints q = __builtin_convertvector((v + magic) - magic + r.zero_point, Ints);
    // In range: narrowing keeps each value.
    const Outs narrow = __builtin_convertvector(q, Outs);
    Out* row = out + i * row_stride;
    if (col_stride == 1 && cols == kQNR) {
      std::memcpy(row, &narrow, sizeof narrow);
    } else {
      for (int64_t j = 0; j < cols; ++j) row[j * col_stride] = narrow[j];
    }
  }
}

// kQNR int32 sums, from memory or (VNNI's channel_tile) a register.
inline void load_sums(const int32_t* from, int32_t (&to)[kQNR]) {
  std::memcpy(to, from, sizeof to);
}
#if defined(__AVX512F__)
inline void load_sums(const __m512i& from, int32_t (&to)[kQNR]) {
  static_assert(kQNR == 16, "a register of sums");
  std::memcpy(to, &from, sizeof to);
}
#endif

// out[0:n] (n <= kQNR) from kQNR sums of one channel less `correction`: Note
// [Requantization] with that channel's multiplier and bias, as finish_tile computes them.
template <typename Out, typename Sums>
__attribute__((always_inline)) inline void requantize_run(const Sums& sums, int64_t n,
                                                          float multiplier, float bias,
                                                          const Requantize& r, Out* out,
                                                          int32_t correction = 0) {
  typedef float Floats __attribute__((vector_size(4 * kQNR)));
  typedef int32_t Ints __attribute__((vector_size(4 * kQNR)));
  int32_t values[kQNR];
  load_sums(sums, values);
  Ints sum;
  std::memcpy(&sum, values, sizeof sum);
  Floats y = __builtin_convertvector(sum - correction, Floats) * multiplier;
  quantized::keep_rounded(y);
  y = y + bias;
  Floats v = r.inv_scale * y;
  quantized::keep_rounded(v);
  typedef Out Outs __attribute__((vector_size(kQNR * sizeof(Out))));
  Outs narrow;
#if defined(__AVX512BW__)
  // The same bits in fewer instructions: vmaxps gives its second operand, lo, for a NaN;
  // the conversion rounds to nearest even as the 1.5 x 2^23 constant does; vpmovdb narrows.
  const __m512 clamped =
      _mm512_min_ps(_mm512_max_ps(__m512(v), _mm512_set1_ps(r.lo)), _mm512_set1_ps(r.hi));
  const __m512i q = _mm512_add_epi32(
      _mm512_cvt_roundps_epi32(clamped, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
      _mm512_set1_epi32(static_cast<int32_t>(r.zero_point)));
  const __m128i bytes = _mm512_cvtepi32_epi8(q);
  std::memcpy(&narrow, &bytes, sizeof narrow);
#else
  const Floats lo = Floats{} + r.lo, hi = Floats{} + r.hi, magic = Floats{} + 12582912.0f;
  v = v >= lo ? v : lo;  // a NaN (from a NaN bias) clamps to lo, as quantize does
  v = v > hi ? hi : v;
  const Ints q = __builtin_convertvector((v + magic) - magic + r.zero_point, Ints);
  narrow = __builtin_convertvector(q, Outs);  // in range: keeps each value
#endif
  if (n == kQNR) {
    std::memcpy(out, &narrow, sizeof narrow);
    return;
  }
#if defined(__AVX512BW__)
  _mm_mask_storeu_epi8(out, static_cast<__mmask16>((1u << n) - 1), bytes);
#else
  for (int64_t j = 0; j < n; ++j) out[j] = narrow[j];
#endif
}

// out[0:count] from `sums` (room for count rounded up to kQNR) of one channel, kQNR values
// at a time (requantize_run).
template <typename Out>
void requantize_channel(const int32_t* sums, int64_t count, float multiplier, float bias,
                        const Requantize& r, Out* out) {
  const Requantize local = r;  // an 8-bit store may alias r: GCC reloaded it at every run
  for (int64_t j0 = 0; j0 < count; j0 += kQNR) {
    requantize_run(sums + j0, count - j0 < kQNR ? count - j0 : kQNR, multiplier, bias, local,
                   out + j0);
  }
}

// c (rows x cols, element (i, j) at c + i * c_row + j * c_col) = requantize(a @ b), a already
// packed (pack_a; `a_zero` its zero point as stored), b packed at load. The multipliers and biases have round_up(cols, kQNR)
// entries.
template <typename Out>
void gemm(const AValue* a, int64_t rows, const PackedB& b, int32_t a_zero, const Requantize& r,
          Out* c, int64_t c_row, int64_t c_col) {
  const int64_t groups = b.padded_depth / kQK;
  int32_t sums[kQMR][kQNR];
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
  if (rows == 1) {  // one input (a classifier's): its 4 values broadcast for 4 panels at once
    constexpr int kPanels = 4;
    for (int64_t j0 = 0; j0 < b.cols; j0 += kPanels * kQNR) {
      const int64_t panels =
          (b.cols - j0 + kQNR - 1) / kQNR < kPanels ? (b.cols - j0 + kQNR - 1) / kQNR : kPanels;
      const int8_t* panel = b.panels + j0 * b.padded_depth;
      __m512i acc[kPanels];
      for (int k = 0; k < kPanels; ++k) acc[k] = _mm512_setzero_si512();
      for (int64_t g = 0; g < groups; ++g) {
        int32_t four;
        std::memcpy(&four, a + g * kQK, 4);
        const __m512i values = _mm512_set1_epi32(four);
#pragma GCC unroll 4
        for (int k = 0; k < kPanels; ++k) {
          if (k < panels) {
            const int8_t* at = panel + k * kQNR * b.padded_depth + g * kQNR * kQK;
            acc[k] = dpbusd(acc[k], values, _mm512_loadu_si512(at));
          }
        }
      }
      for (int k = 0; k < panels; ++k) {
        _mm512_storeu_si512(sums[0], acc[k]);
        const int64_t first = j0 + k * kQNR;
        finish_tile(sums, 1, b.cols - first < kQNR ? b.cols - first : kQNR, first, b.sums, a_zero,
                    r, c + first * c_col, c_row, c_col);
      }
    }
    return;
  }
#endif
  // Blocks of a's rows that stay in L1/L2 while every panel of b passes over them.
  constexpr int64_t kRowBlock = 16 * kQMR;
  for (int64_t i0 = 0; i0 < rows; i0 += kRowBlock) {
    const int64_t i_end = i0 + kRowBlock < rows ? i0 + kRowBlock : rows;
    for (int64_t j0 = 0; j0 < b.cols; j0 += kQNR) {
      const int8_t* panel = b.panels + j0 * b.padded_depth;
      const int64_t cols = b.cols - j0 < kQNR ? b.cols - j0 : kQNR;
      for (int64_t i = i0; i < i_end; i += kQMR) {
        microkernel(groups, a + i * b.padded_depth, b.padded_depth, panel, sums);
        finish_tile(sums, i_end - i < kQMR ? i_end - i : kQMR, cols, j0, b.sums, a_zero, r,
                    c + i * c_row + j0 * c_col, c_row, c_col);
      }
    }
  }
}

}  // namespace qgemm
}  // namespace opt
