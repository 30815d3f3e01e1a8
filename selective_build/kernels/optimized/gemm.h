#pragma once

// Double matrix products for the optimized kernels: Eigen's GEMM over the tensors' own
// memory. Float products run on our own microkernel (gemm_packed.h).
//
// Note [GEMM tiles]
// A product is cut into tiles that depend only on its shape: panels of kEigenTileRows rows of
// the output when it has at least as many rows as columns, else panels of kEigenTileCols
// columns. Each tile is one Eigen product, so every output element is computed by the
// same code path (Eigen's blocking and its edge kernels depend on the tile's sizes)
// whatever the number of threads: opt::parallel_for only decides which thread computes
// which tiles, and the results are bit-identical for every thread count (Note [Threads]).
//
// Operands are Eigen maps of the strided data, never copies: a matrix whose columns are
// adjacent (col_stride 1) is mapped row-major, one whose rows are (row_stride 1)
// column-major, so a transposed view (a permuted dim order) costs nothing. A matrix with
// neither (a batch dimension innermost) takes a plain loop.
//
// Note [Streaming GEMM]
// A product of a few rows by a large matrix (a batch of 4 through a 2048x4096 Linear) is
// bound by reading b from memory once, yet Eigen's GEMM first packs b for its register
// blocks: at 4 rows the packing took 80 % of the big MLP's time and the product ran at 1.5x
// torch's (benchmarks/RESULTS.md, "The big MLP"). Such a product (at most kStreamRows
// rows, b of at least kStreamElements, b and c row-major) streams b instead: tiles of
// kStreamCols columns, and for each four rows of b one pass that adds them into every row
// of the c tile, which stays in L1. Each output element is still summed in one fixed order
// that depends only on the shape, so Note [GEMM tiles] holds.

// Our pool splits the work; Eigen must not start threads of its own.
#define EIGEN_DONT_PARALLELIZE
#include <Eigen/Core>

#include <cstdint>
#include <type_traits>

#include "kernels/optimized/matrix.h"
#include "kernels/optimized/parallel.h"

namespace opt {

constexpr int64_t kEigenTileRows =
    96;  // a multiple of Eigen's register blocks (AVX: 24 x 4 floats)
constexpr int64_t kEigenTileCols =
    256;  // likewise, for outputs wider than tall (a batch of one row)
// Note [Streaming GEMM]: up to 8 rows of 1,024 floats of c (32 KiB) and the four rows of b
// added into them (16 KiB) fit a 48 KiB L1; b past a 1 MiB L2 is read from memory.
constexpr int64_t kStreamRows = 8;
constexpr int64_t kStreamCols = 1024;
constexpr int64_t kStreamElements = int64_t{1} << 18;

// A map of T's data (const T: read only) in one storage order.
template <typename T, int kOrder>
using EigenMap =
    Eigen::Map<std::conditional_t<std::is_const<T>::value,
                                  const Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic,
                                                      Eigen::Dynamic, kOrder>,
                                  Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, kOrder>>,
               Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename T>
using RowMajorMap = EigenMap<T, Eigen::RowMajor>;
template <typename T>
using ColMajorMap = EigenMap<T, Eigen::ColMajor>;

template <typename T>
RowMajorMap<T> row_major_map(const Matrix<T>& m) {
  // A single row's outer stride is never read; Eigen still asserts nothing on it.
  return RowMajorMap<T>(m.data, m.rows, m.cols,
                        Eigen::OuterStride<>(m.rows <= 1 ? m.cols : m.row_stride));
}
template <typename T>
ColMajorMap<T> col_major_map(const Matrix<T>& m) {
  return ColMajorMap<T>(m.data, m.rows, m.cols,
                        Eigen::OuterStride<>(m.cols <= 1 ? m.rows : m.col_stride));
}

// c = a @ b for one tile, c row-major. Each operand mapped by its layout.
template <typename T>
void product_row_major(const Matrix<const T>& a, const Matrix<const T>& b, const Matrix<T>& c) {
  auto out = row_major_map(c);
  if (a.row_major() && b.row_major()) {
    out.noalias() = row_major_map(a) * row_major_map(b);
  } else if (a.row_major() && b.col_major()) {
    out.noalias() = row_major_map(a) * col_major_map(b);
  } else if (a.col_major() && b.row_major()) {
    out.noalias() = col_major_map(a) * row_major_map(b);
  } else {
    out.noalias() = col_major_map(a) * col_major_map(b);
  }
}

// c = a @ b for one tile: a is rows x k, b is k x cols.
template <typename T>
void product(const Matrix<const T>& a, const Matrix<const T>& b, const Matrix<T>& c) {
  if (c.rows == 0 || c.cols == 0) return;
  const bool mappable = (a.row_major() || a.col_major()) && (b.row_major() || b.col_major());
  if (mappable && c.row_major()) {
    product_row_major(a, b, c);
  } else if (mappable && c.col_major()) {
    product_row_major(b.transposed(), a.transposed(), c.transposed());  // c^T = b^T a^T
  } else {
    // No unit stride to map: a dot product per element, summed in order.
    for (int64_t i = 0; i < c.rows; ++i) {
      for (int64_t j = 0; j < c.cols; ++j) {
        T sum = T(0);
        for (int64_t p = 0; p < a.cols; ++p)
          sum += a.data[i * a.row_stride + p * a.col_stride] *
                 b.data[p * b.row_stride + j * b.col_stride];
        c.data[i * c.row_stride + j * c.col_stride] = sum;
      }
    }
  }
}

// c = a @ b for one tile, b and c row-major, streaming b (Note [Streaming GEMM]).
template <typename T>
void stream_product(const Matrix<const T>& a, const Matrix<const T>& b, const Matrix<T>& c) {
  using Row = Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>>;
  using ConstRow = Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>;
  const int64_t k = a.cols, n = c.cols;
  for (int64_t i = 0; i < c.rows; ++i) Row(c.data + i * c.row_stride, n).setZero();
  int64_t p = 0;
  for (; p + 4 <= k; p += 4) {
    const T* bp = b.data + p * b.row_stride;
    const ConstRow b0(bp, n), b1(bp + b.row_stride, n), b2(bp + 2 * b.row_stride, n),
        b3(bp + 3 * b.row_stride, n);
    for (int64_t i = 0; i < c.rows; ++i) {
      const T* ai = a.data + i * a.row_stride + p * a.col_stride;
      Row(c.data + i * c.row_stride, n) += ai[0] * b0 + ai[a.col_stride] * b1 +
                                           ai[2 * a.col_stride] * b2 + ai[3 * a.col_stride] * b3;
    }
  }
  for (; p < k; ++p) {
    const ConstRow bp(b.data + p * b.row_stride, n);
    for (int64_t i = 0; i < c.rows; ++i)
      Row(c.data + i * c.row_stride, n) += a.data[i * a.row_stride + p * a.col_stride] * bp;
  }
}

// The tiles of one product (Note [GEMM tiles]).
struct Tiling {
  bool by_rows;
  int64_t size;   // rows or columns per tile
  int64_t count;  // tiles per product
  bool stream;    // a few rows by a large b: Note [Streaming GEMM]

  static Tiling of(int64_t rows, int64_t cols, int64_t depth) {
    const bool stream = rows <= kStreamRows && depth * cols >= kStreamElements;
    const bool by_rows = !stream && rows >= cols;
    const int64_t size = stream ? kStreamCols : by_rows ? kEigenTileRows : kEigenTileCols;
    const int64_t extent = by_rows ? rows : cols;
    return Tiling{by_rows, size, extent == 0 ? 0 : (extent + size - 1) / size, stream};
  }
};

// c[b] = a[b] @ bm[b] for b in [0, batch), then epilogue(c tile) on each tile once it is
// computed. Batches and tiles are split over the pool's threads.
template <typename T, typename Epilogue>
void batched_gemm(int64_t batch, const Matrix<const T>& a0, int64_t a_batch_stride,
                  const Matrix<const T>& b0, int64_t b_batch_stride, const Matrix<T>& c0,
                  int64_t c_batch_stride, const Epilogue& epilogue) {
  const int64_t k = a0.cols;
  const Tiling tiling = Tiling::of(c0.rows, c0.cols, k);
  if (batch == 0 || tiling.count == 0) return;
  // A tile per worker only when it is worth a wake-up (~2^17 multiply-adds).
  const int64_t tile_work = (tiling.by_rows ? tiling.size * c0.cols : tiling.size * c0.rows) * k;
  const int64_t grain =
      tile_work >= (int64_t{1} << 17) ? 1 : ((int64_t{1} << 17) + tile_work) / (tile_work + 1);
  parallel_for(batch * tiling.count, grain, [&](int64_t begin, int64_t end) {
    for (int64_t index = begin; index < end; ++index) {
      const int64_t b = index / tiling.count;
      const int64_t start = index % tiling.count * tiling.size;
      Matrix<const T> a = a0, bm = b0;
      Matrix<T> c = c0;
      a.data += b * a_batch_stride;
      bm.data += b * b_batch_stride;
      c.data += b * c_batch_stride;
      if (tiling.by_rows) {
        const int64_t rows = c.rows - start < tiling.size ? c.rows - start : tiling.size;
        a = a.block(start, 0, rows, k);
        c = c.block(start, 0, rows, c.cols);
      } else {
        const int64_t cols = c.cols - start < tiling.size ? c.cols - start : tiling.size;
        bm = bm.block(0, start, k, cols);
        c = c.block(0, start, c.rows, cols);
      }
      if (tiling.stream && bm.row_major() && c.row_major()) {
        stream_product(a, bm, c);
      } else {
        product(a, bm, c);
      }
      epilogue(c, start, tiling.by_rows);
    }
  });
}

}  // namespace opt
