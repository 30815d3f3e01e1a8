#pragma once

#include <cstdint>

#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/evalue.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Element offsets of a tensor by row-major position, with a fast path for
// contiguous tensors.
struct ElementOffsets {
  const rt::Tensor* tensor;
  bool contiguous;

  explicit ElementOffsets(const rt::Tensor* t)
      : tensor(t), contiguous(t == nullptr || t->is_contiguous()) {}
  int64_t operator()(int64_t linear) const {
    return contiguous ? linear : tensor->offset_of(linear);
  }
};

// A 2-D pooling or convolution parameter list (`int[2]`): one entry is used
// for both dims, none gives `fallback`. False when there are more than 2 or
// `positive` and one is not, or one is larger than a size can be.
__attribute__((noinline)) inline bool pair_arg(const rt::OpContext& in, rt::IntList list,
                                               int64_t fallback0, int64_t fallback1, bool positive,
                                               int64_t* pair) {
  if (list.size() > 2) {
    in.fail("a 2-d parameter list has more than 2 entries");
    return false;
  }
  pair[0] = list.size() == 0 ? fallback0 : list[0];
  pair[1] = list.size() == 0 ? fallback1 : list.size() == 1 ? list[0] : list[1];
  if ((positive && (pair[0] <= 0 || pair[1] <= 0)) || pair[0] < 0 || pair[1] < 0) {
    in.fail(positive ? "kernel size, stride and dilation must be positive"
                     : "padding must not be negative");
    return false;
  }
  // Note [Window parameters fit a size]
  // A program's kernel size, stride, padding or dilation may be anything up to INT64_MAX;
  // the window arithmetic (a span dilation * (kernel - 1) + 1, a room input + 2 * padding
  // - span + stride - 1, a window start out * stride - padding plus its span) overflowed
  // (UBSan, found by the runner fuzz: tests/fuzz/). Bounded like a size (int32), every
  // such sum and product stays below 2^63.
  if (pair[0] > INT32_MAX || pair[1] > INT32_MAX) {
    in.fail("kernel size, stride, padding and dilation must be at most 2147483647");
    return false;
  }
  return true;
}

}  // namespace portable
