#pragma once

// Float transposes in registers: packing a row-major operand into the GEMM's a panels
// (gemm_packed.h pack_a_panels: a panel stores, for each step p of the depth, one value of
// each of its rows, so packing a row-major a is a transpose) and permute_copy's 16 x 16
// tiles (elem/permute.h). A scalar gather (a load and a
// store per value, its 14 row offsets spilled from the registers) made packing a ViT's
// activations 5 % of its time.

#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace opt {

#if defined(__AVX512F__)
// Rows a block may have, and columns it moves per step.
constexpr int kTransposeLanes = 16;

// out[j * out_step + i] = in[i * in_step + j] for i < rows (<= 16), j < cols (<= 16),
// nothing else read or written (masked loads and stores). Every loop is unrolled, so the
// 16 rows stay in registers through the three rounds of shuffles.
inline void transpose_block(const float* in, int64_t in_step, int rows, int cols, float* out,
                            int64_t out_step) {
  const auto col_mask = static_cast<__mmask16>((1u << cols) - 1);
  const auto row_mask = static_cast<__mmask16>((1u << rows) - 1);
  __m512 r[16], a[16], b[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
    // A row past `rows` loads nothing (mask 0) from row 0's address, which is valid.
    r[i] = _mm512_maskz_loadu_ps(i < rows ? col_mask : 0, in + (i < rows ? i : 0) * in_step);
  }
  // Pairs of rows interleaved, then pairs of pairs: b[4k + c] holds, in 128-bit lane L,
  // rows 4k..4k+3 of column 4L + c.
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    a[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    a[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const __m512d lo0 = _mm512_castps_pd(a[4 * k]), lo1 = _mm512_castps_pd(a[4 * k + 2]);
    const __m512d hi0 = _mm512_castps_pd(a[4 * k + 1]), hi1 = _mm512_castps_pd(a[4 * k + 3]);
    b[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(lo0, lo1));
    b[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(lo0, lo1));
    b[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(hi0, hi1));
    b[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(hi0, hi1));
  }
  // Column 4L + c gathers lane L of b[c], b[4 + c], b[8 + c] and b[12 + c].
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    const __m512 low01 = _mm512_shuffle_f32x4(b[c], b[4 + c], 0x44);       // their lanes
    const __m512 low23 = _mm512_shuffle_f32x4(b[8 + c], b[12 + c], 0x44);  // 0 and 1,
    const __m512 high01 = _mm512_shuffle_f32x4(b[c], b[4 + c], 0xee);      // 2 and 3
    const __m512 high23 = _mm512_shuffle_f32x4(b[8 + c], b[12 + c], 0xee);
    const __m512 column[4] = {
        _mm512_shuffle_f32x4(low01, low23, 0x88), _mm512_shuffle_f32x4(low01, low23, 0xdd),
        _mm512_shuffle_f32x4(high01, high23, 0x88), _mm512_shuffle_f32x4(high01, high23, 0xdd)};
#pragma GCC unroll 4
    for (int lane = 0; lane < 4; ++lane) {
      const int j = 4 * lane + c;
      if (j < cols) _mm512_mask_storeu_ps(out + j * out_step, row_mask, column[lane]);
    }
  }
}

// out[p * out_step + i] = in[i * in_step + p] for i < rows (<= kTransposeLanes), p < depth.
inline void transpose_rows(const float* in, int64_t in_step, int rows, int64_t depth, float* out,
                           int64_t out_step) {
  for (int64_t p = 0; p < depth; p += kTransposeLanes) {
    const int cols = depth - p < kTransposeLanes ? static_cast<int>(depth - p) : kTransposeLanes;
    transpose_block(in + p, in_step, rows, cols, out + p * out_step, out_step);
  }
}

#endif

}  // namespace opt
