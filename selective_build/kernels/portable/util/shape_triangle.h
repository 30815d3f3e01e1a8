#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// tril and triu: out = self with the elements on one side of a diagonal of
// each matrix (the last two dims) zeroed. `lower` keeps column - row <=
// diagonal (tril), else column - row >= diagonal (triu). Zero is all-zero
// bytes in every dtype, so one copy of this serves all of them; the caller
// checks the dtypes.
__attribute__((noinline)) inline void shape_triangle(const rt::OpContext& in,
                                                     const rt::Tensor& self, rt::Tensor& out,
                                                     int64_t diagonal, bool lower) {
  const int dim = self.dim();
  if (dim < 2) return in.fail("self must have at least 2 dims");
  if (!resize_out(in, out, self.sizes().data(), dim)) return;
  copy_same_shape(out, self);
  const int64_t rows = out.size(dim - 2);
  const int64_t cols = out.size(dim - 1);
  if (out.numel() == 0) return;
  const int64_t matrices = out.numel() / (rows * cols);
  const int64_t row_stride = out.stride(dim - 2);
  const int64_t col_stride = out.stride(dim - 1);
  const size_t element = out.element_size();
  uint8_t* data = static_cast<uint8_t*>(out.data());
  for (int64_t m = 0; m < matrices; ++m) {
    int64_t base = 0;
    for (int64_t d = dim - 3, rest = m; d >= 0; --d) {
      base += rest % out.size(static_cast<int>(d)) * out.stride(static_cast<int>(d));
      rest /= out.size(static_cast<int>(d));
    }
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
        if (!keep)
          memset(data + (base + i * row_stride + j * col_stride) * static_cast<int64_t>(element), 0,
                 element);
      }
    }
  }
}

}  // namespace portable
