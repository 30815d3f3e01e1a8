#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/optimized/transpose.h"
#include "runtime/core/tensor.h"

namespace optimized {

// Note [Permute as blocks]
// A permute into a contiguous out reads self with permuted strides. Its dims
// are first simplified: size-1 dims dropped, and neighbouring out dims merged
// where self holds them contiguously too (a 2-d transpose stays 2-d however
// many size-1 dims surround it; [B, H, T, D] -> [B, T, H, D] keeps rows of
// D). Then:
//   - the last dim reads self contiguously: one memcpy per row;
//   - some other dim k does (a transpose of k and the last dim, for each
//     index of the rest: linear's weight, attention's heads): 16 x 16 tiles,
//     so the rows of self a tile reads stay in cache while it writes out's (for
//     floats with AVX-512, each tile transposed in registers: transpose.h);
//   - else (a self that is not contiguous): element by element.

struct PermuteDims {
  int n = 0;
  int64_t size[rt::Tensor::kMaxDims];
  int64_t from[rt::Tensor::kMaxDims];  // self's stride per out dim, in elements
  int64_t to[rt::Tensor::kMaxDims];    // out's (contiguous) stride
};

// The simplified dims of a permute with out dims `sizes` read at `strides`.
inline PermuteDims simplify_permute(const int32_t* sizes, const int64_t* strides, int dim) {
  PermuteDims p;
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 1) continue;
    if (p.n > 0 && p.from[p.n - 1] == strides[d] * sizes[d]) {
      p.size[p.n - 1] *= sizes[d];
      p.from[p.n - 1] = strides[d];
    } else {
      p.size[p.n] = sizes[d];
      p.from[p.n] = strides[d];
      ++p.n;
    }
  }
  int64_t stride = 1;
  for (int d = p.n - 1; d >= 0; --d) {
    p.to[d] = stride;
    stride *= p.size[d];
  }
  return p;
}

// Calls body(out_offset, self_offset) for every index of the dims of `p`
// other than `skip_a` and `skip_b` (pass -1 to skip fewer), in row-major order.
template <typename Body>
void for_each_outer(const PermuteDims& p, int skip_a, int skip_b, Body body) {
  int dims[rt::Tensor::kMaxDims];
  int m = 0;
  for (int d = 0; d < p.n; ++d) {
    if (d != skip_a && d != skip_b) dims[m++] = d;
  }
  int64_t index[rt::Tensor::kMaxDims] = {};
  int64_t to = 0, from = 0;
  while (true) {
    body(to, from);
    int k = m - 1;
    for (; k >= 0; --k) {
      const int d = dims[k];
      if (++index[k] < p.size[d]) {
        to += p.to[d];
        from += p.from[d];
        break;
      }
      index[k] = 0;
      to -= p.to[d] * (p.size[d] - 1);
      from -= p.from[d] * (p.size[d] - 1);
    }
    if (k < 0) return;
  }
}

// out (contiguous) = self read as `p` says; T the element type.
template <typename T>
void permute_blocks(const PermuteDims& p, const T* self, T* out) {
  if (p.n == 0) {
    out[0] = self[0];
    return;
  }
  const int last = p.n - 1;
  if (p.from[last] == 1) {
    const size_t row = static_cast<size_t>(p.size[last]) * sizeof(T);
    for_each_outer(p, last, -1,
                   [&](int64_t to, int64_t from) { memcpy(out + to, self + from, row); });
    return;
  }
  int k = -1;
  for (int d = 0; d < last; ++d) {
    if (p.from[d] == 1) k = d;
  }
  if (k < 0) {
    const int64_t n = p.size[last], step = p.from[last];
    for_each_outer(p, last, -1, [&](int64_t to, int64_t from) {
      for (int64_t j = 0; j < n; ++j) out[to + j] = self[from + j * step];
    });
    return;
  }
  constexpr int64_t kTile = 16;
  const int64_t rows = p.size[k], cols = p.size[last], row_stride = p.to[k],
                col_step = p.from[last];
  for_each_outer(p, k, last, [&](int64_t to, int64_t from) {
    for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
      const int64_t i1 = i0 + kTile < rows ? i0 + kTile : rows;
      for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
        const int64_t j1 = j0 + kTile < cols ? j0 + kTile : cols;
#if defined(__AVX512F__)
        static_assert(kTile == opt::kTransposeLanes, "a tile is one register transpose");
        if constexpr (std::is_same_v<T, float>) {
          // self's column j is the register transpose's row.
          opt::transpose_block(self + from + i0 + j0 * col_step, col_step,
                               static_cast<int>(j1 - j0), static_cast<int>(i1 - i0),
                               out + to + i0 * row_stride + j0, row_stride);
          continue;
        }
#endif
        for (int64_t i = i0; i < i1; ++i) {
          T* o = out + to + i * row_stride;
          const T* s = self + from + i;
          for (int64_t j = j0; j < j1; ++j) o[j] = s[j * col_step];
        }
      }
    }
  });
}

}  // namespace optimized
