#pragma once

#include <cstdint>

namespace opt {

// A strided view of a matrix: element (i, j) at data[i * row_stride + j * col_stride].
template <typename T>
struct Matrix {
  T* data;
  int64_t rows, cols, row_stride, col_stride;

  // Adjacent columns (or a single one: its stride is never used).
  bool row_major() const { return col_stride == 1 || cols <= 1; }
  // Adjacent rows (or a single one).
  bool col_major() const { return row_stride == 1 || rows <= 1; }

  T& at(int64_t i, int64_t j) const { return data[i * row_stride + j * col_stride]; }

  Matrix block(int64_t row, int64_t col, int64_t nrows, int64_t ncols) const {
    return Matrix{data + row * row_stride + col * col_stride, nrows, ncols, row_stride, col_stride};
  }
  Matrix transposed() const { return Matrix{data, cols, rows, col_stride, row_stride}; }
};

}  // namespace opt
