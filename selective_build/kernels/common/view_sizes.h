#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

// Helpers shared by the portable and the prim kernels (this header includes
// only runtime/ headers, so either library can use it).
namespace kernels {

// torch's view size inference (infer_size): `sizes` becomes `size` with its
// one -1 entry, if any, replaced by the extent that makes the product
// `numel`. Fails through `in` and returns false if `size` has more than
// kMaxDims entries, a negative (or second -1) entry, or does not fit `numel`;
// a -1 with the other entries' product 0 is ambiguous and fails too, as in
// torch (even for an empty self).
inline bool view_sizes(const rt::OpContext& in, const rt::IntList& size, int64_t numel,
                       int32_t* sizes) {
  if (size.size() > static_cast<size_t>(rt::Tensor::kMaxDims)) {
    in.fail("size has too many dims");
    return false;
  }
  const int dim = static_cast<int>(size.size());
  int inferred = -1;
  int64_t known = 1;
  for (int d = 0; d < dim; ++d) {
    const int64_t extent = size[d];
    if (extent == -1 && inferred < 0) {
      inferred = d;
      sizes[d] = 1;
      continue;
    }
    if (extent < 0 || extent > INT32_MAX) {
      in.fail("size has a negative or second -1 entry");
      return false;
    }
    sizes[d] = static_cast<int32_t>(extent);
    known *= extent;
  }
  if (inferred >= 0) {
    if (known == 0 || numel % known != 0) {
      in.fail("size is invalid for self's number of elements");
      return false;
    }
    sizes[inferred] = static_cast<int32_t>(numel / known);
    known = numel;
  }
  if (known != numel) {
    in.fail("size is invalid for self's number of elements");
    return false;
  }
  return true;
}

}  // namespace kernels
