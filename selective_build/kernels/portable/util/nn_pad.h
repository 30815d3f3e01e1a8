#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Note [Reflection and replication padding]
// reflection_pad{1,2,3}d and replication_pad{1,2,3}d pad the last `n` dims of
// a tensor of n + 1 or n + 2 dims; `padding` holds (before, after) pairs, the
// last dim's first, and a negative entry crops. Out element o of a padded dim
// reads self at i = o - before, brought back inside [0, size):
//   reflection:  i < 0 -> -i, i >= size -> 2 (size - 1) - i  (the edge is not
//                repeated; every pad must be smaller than its dim, so one
//                reflection always lands inside)
//   replication: i clamped to [0, size - 1] (the dim must not be empty)
// The kernels only move elements, so one loop per element size serves every
// dtype and all six operators (a dtype check keeps the selection honest).

enum class PadMode { Reflection, Replication };

namespace detail {

// Self's index for out index `o` of a dim of `size` padded by `before`.
inline int64_t pad_source_index(int64_t o, int64_t before, int64_t size, PadMode mode) {
  int64_t i = o - before;
  if (mode == PadMode::Reflection) {
    if (i < 0) i = -i;
    if (i >= size) i = 2 * (size - 1) - i;
  } else {
    i = i < 0 ? 0 : (i >= size ? size - 1 : i);
  }
  return i;
}

template <typename W>
void pad_copy_elements(const rt::Tensor& self, rt::Tensor& out, const int64_t* before,
                       PadMode mode) {
  const int rank = out.dim();
  const W* from = self.data_as<const W>();
  W* to = out.data_as<W>();
  int64_t index[rt::Tensor::kMaxDims] = {};
  const int64_t numel = out.numel();
  for (int64_t n = 0; n < numel; ++n) {
    int64_t source = 0, target = 0;
    for (int d = 0; d < rank; ++d) {
      target += index[d] * out.stride(d);
      source += pad_source_index(index[d], before[d], self.size(d), mode) * self.stride(d);
    }
    to[target] = from[source];
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < out.size(d)) break;
      index[d] = 0;
    }
  }
}

}  // namespace detail

// Checks a call of an n-d reflection or replication pad, resizes out and
// copies (Note [Reflection and replication padding]). The dtype is checked by
// the caller. Not a template: every pad kernel shares it.
__attribute__((noinline)) inline void pad_nd(const rt::OpContext& in, const rt::Tensor& self,
                                             rt::IntList padding, int n, PadMode mode,
                                             rt::Tensor& out) {
  const int rank = self.dim();
  if (padding.size() != static_cast<size_t>(2 * n))
    return in.fail("padding must have two entries per padded dim");
  if (rank != n + 1 && rank != n + 2)
    return in.fail("self must have one or two dims more than the padded ones");
  if (out.dtype() != self.dtype()) return in.fail("out must have self's dtype");
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t before[rt::Tensor::kMaxDims];
  for (int d = 0; d < rank; ++d) {
    sizes[d] = self.size(d);
    before[d] = 0;
  }
  for (int i = 0; i < n; ++i) {
    const int d = rank - 1 - i;
    const int64_t b = padding[2 * i], a = padding[2 * i + 1];
    const int64_t size = self.size(d) + b + a;
    if (size < 0) return in.fail("padding makes a size negative");
    if (size > INT32_MAX) return in.fail("padding makes a size too large");
    if (mode == PadMode::Reflection && (b >= self.size(d) || a >= self.size(d))) {
      return in.fail("reflection padding must be smaller than the padded dim");
    }
    if (mode == PadMode::Replication && self.size(d) == 0 && size > 0) {
      return in.fail("replication padding needs a non-empty padded dim");
    }
    before[d] = b;
    sizes[d] = static_cast<int32_t>(size);
  }
  if (!resize_out(in, out, sizes, rank) || out.numel() == 0) return;
  switch (out.element_size()) {
    case 1:
      return detail::pad_copy_elements<uint8_t>(self, out, before, mode);
    case 2:
      return detail::pad_copy_elements<uint16_t>(self, out, before, mode);
    case 4:
      return detail::pad_copy_elements<uint32_t>(self, out, before, mode);
    default:
      return detail::pad_copy_elements<uint64_t>(self, out, before, mode);
  }
}

}  // namespace portable
