#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"

namespace portable {

// Visits every element of a shape in row-major order for N operands at once,
// one innermost row at a time, tracking each operand's element offset.
// Operands broadcast: their dims align to the right of the shape, and a
// missing or size-1 dim gets stride 0.
template <int N>
class StridedWalk {
 public:
  // Walks `sizes` (a 0-dim shape is walked as one element).
  void init(const int32_t* sizes, int dim) {
    dim_ = dim > 0 ? dim : 1;
    for (int d = 0; d < dim_; ++d) {
      sizes_[d] = dim > 0 ? sizes[d] : 1;
      index_[d] = 0;
    }
  }

  // Operand k follows `tensor`'s strides.
  void set_operand(int k, const rt::Tensor& tensor) {
    offset_[k] = 0;
    const int shift = dim_ - tensor.dim();
    for (int d = 0; d < dim_; ++d) {
      const int source = d - shift;
      strides_[k][d] = source >= 0 && tensor.size(source) != 1 ? tensor.stride(source) : 0;
    }
  }
  // Operand k walks with explicit per-dim strides (in elements).
  void set_operand_strides(int k, const int64_t* strides) {
    offset_[k] = 0;
    for (int d = 0; d < dim_; ++d) strides_[k][d] = strides[d];
  }

  int64_t row_size() const { return sizes_[dim_ - 1]; }
  int64_t row_stride(int k) const { return strides_[k][dim_ - 1]; }
  int64_t offset(int k) const { return offset_[k]; }

  // Moves to the next row; false after the last one. Kept out of line: one
  // copy serves every kernel loop.
  __attribute__((noinline)) bool next_row() {
    for (int d = dim_ - 2; d >= 0; --d) {
      for (int k = 0; k < N; ++k) offset_[k] += strides_[k][d];
      if (++index_[d] < sizes_[d]) return true;
      for (int k = 0; k < N; ++k) offset_[k] -= strides_[k][d] * sizes_[d];
      index_[d] = 0;
    }
    return false;
  }

 private:
  int dim_;
  int64_t sizes_[rt::Tensor::kMaxDims];
  int64_t index_[rt::Tensor::kMaxDims];
  int64_t strides_[N][rt::Tensor::kMaxDims];
  int64_t offset_[N];
};

}  // namespace portable
