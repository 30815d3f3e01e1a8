#pragma once

#include <cstdint>
#include <cstring>

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

}  // namespace portable
