#pragma once

#include <cstdint>

#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/evalue.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Reads `SymInt[]? output_size` and `float[]? scale_factors` (exactly one
// present, two entries), checks input (3-D or 4-D, floating or as the op
// allows) and resizes out: given sizes, or floor(input size * scale).
// `scales` receives the scale factors, 0 where only sizes were given.
__attribute__((noinline)) inline bool plan_upsample2d(const rt::OpContext& in,
                                                      rt::Optional<rt::IntList> output_size,
                                                      rt::Optional<rt::DoubleList> scale_factors,
                                                      const rt::Tensor& input, rt::Tensor& out,
                                                      double* scales) {
  const int rank = input.dim();
  if ((rank != 3 && rank != 4) || input.size(rank - 1) == 0 || input.size(rank - 2) == 0) {
    in.fail("input must be 3-D or 4-D with nonzero height and width");
    return false;
  }
  if (out.dtype() != input.dtype()) {
    in.fail("out must have input's dtype");
    return false;
  }
  const bool has_size = output_size.has_value();
  const bool has_scale = scale_factors.has_value();
  if (has_size == has_scale) {
    in.fail("exactly one of output_size and scale_factors must be given");
    return false;
  }
  int32_t sizes[4];
  for (int d = 0; d < rank; ++d) sizes[d] = input.size(d);
  scales[0] = scales[1] = 0;
  if (has_size) {
    const rt::IntList size = output_size.value();
    if (size.size() != 2 || size[0] <= 0 || size[1] <= 0 || size[0] > INT32_MAX ||
        size[1] > INT32_MAX) {
      in.fail("output_size must be two positive sizes");
      return false;
    }
    sizes[rank - 2] = static_cast<int32_t>(size[0]);
    sizes[rank - 1] = static_cast<int32_t>(size[1]);
  } else {
    const rt::DoubleList factors = scale_factors.value();
    if (factors.size != 2 || !(factors[0] > 0) || !(factors[1] > 0)) {
      in.fail("scale_factors must be two positive numbers");
      return false;
    }
    for (int d = 0; d < 2; ++d) {
      scales[d] = factors[d];
      const double extent = static_cast<double>(sizes[rank - 2 + d]) * factors[d];
      if (!(extent >= 1) || extent > INT32_MAX) {
        in.fail("scale_factors give an empty or too large output");
        return false;
      }
      sizes[rank - 2 + d] = static_cast<int32_t>(extent);
    }
  }
  return resize_out(in, out, sizes, rank);
}

// torch's input-per-output step: 1 / scale when a scale was given, else
// input / output (as float computations of type S).
template <typename S>
S upsample_step(double scale, int64_t input, int64_t output) {
  return scale > 0 ? static_cast<S>(1.0 / scale) : static_cast<S>(input) / static_cast<S>(output);
}

}  // namespace portable
