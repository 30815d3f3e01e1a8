#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Index tensors (embedding, index_select, gather, index): int64 or int32.
inline bool shape_check_index_dtype(const rt::OpContext& in, const rt::Tensor& index) {
  if (index.dtype() == rt::ScalarType::Long || index.dtype() == rt::ScalarType::Int) return true;
  in.fail("indices must be int64 or int32");
  return false;
}

// The index at row-major position `i` of `index`, checked to lie in
// [0, limit) (torch rejects negative indices here); -1 after failing.
inline int64_t shape_index_at(const rt::OpContext& in, const rt::Tensor& index, int64_t i,
                              int64_t limit) {
  const int64_t at = index.offset_of(i);
  int64_t value;
  if (index.dtype() == rt::ScalarType::Long) {
    value = index.data_as<const int64_t>()[at];
  } else {
    value = index.data_as<const int32_t>()[at];
  }
  if (value >= 0 && value < limit) return value;
  in.fail("index is out of range");
  return -1;
}

// Checks embedding's arguments: out has weight's dtype (one of Dtypes, the calling
// library's), weight is a matrix, indices are int64 or int32 with room for one more dim.
template <typename Dtypes>
bool check_embedding_args(const rt::OpContext& in, const rt::Tensor& weight,
                          const rt::Tensor& indices, const rt::Tensor& out) {
  if (!shape_same_dtype<Dtypes>(in, weight, out) || !shape_check_index_dtype(in, indices))
    return false;
  if (weight.dim() != 2) {
    in.fail("weight must have 2 dims");
    return false;
  }
  if (indices.dim() + 1 > rt::Tensor::kMaxDims) {
    in.fail("indices have too many dims");
    return false;
  }
  return true;
}

// out's sizes for embedding (indices' sizes, then weight's row width); gives their count.
inline int embedding_out_sizes(const rt::Tensor& weight, const rt::Tensor& indices,
                               int32_t* sizes) {
  const int dim = indices.dim() + 1;
  for (int d = 0; d + 1 < dim; ++d) sizes[d] = indices.size(d);
  sizes[dim - 1] = weight.size(1);
  return dim;
}

}  // namespace portable
