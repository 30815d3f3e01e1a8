#pragma once

#include <cstdint>

#include "kernels/portable/util/broadcast.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Advanced indexing, `self[indices]` with a Tensor?[] list (index.Tensor_out
// reads it, index_put writes it): the analysis both share.

namespace detail {

constexpr int kIndexMax = rt::Tensor::kMaxDims;

// One non-None entry of `indices`. An integer tensor picks entries of one
// dim of self; a mask of k dims stands for the k coordinates of its true
// elements (numpy's nonzero), one 1-dim index of length `count` per dim.
struct IndexEntry {
  const rt::Tensor* tensor;
  bool mask;
  int first;                // the (first) dim of self it indexes
  int width;                // how many dims of self: 1, or the mask's dims
  int64_t count;            // a mask's number of true elements
  int64_t step[kIndexMax];  // element step per dim of the broadcast index shape
  int64_t seen, where;      // a mask's last found true element: its number and position
};

inline bool mask_at(const rt::Tensor& mask, int64_t position) {
  return mask.data_as<const uint8_t>()[mask.offset_of(position)] != 0;
}

// The row-major position of the j-th true element of a mask: scans on from
// the last one found, which suits the increasing j of the walk.
inline int64_t find_true(IndexEntry& index, int64_t j) {
  if (j < index.seen) index.seen = index.where = -1;
  while (index.seen < j) {
    if (mask_at(*index.tensor, ++index.where)) ++index.seen;
  }
  return index.where;
}

}  // namespace detail

// The plan of `self[indices]`. Its result has the broadcast index shape
// (`shape`, `dim` dims) at `insert`, and self's dims no index takes (the
// "slab", copied whole per index position) around it.
struct AdvancedIndex {
  detail::IndexEntry entries[detail::kIndexMax];
  int count;
  int32_t shape[detail::kIndexMax];
  int dim;
  int insert;
  int32_t slab[detail::kIndexMax];
  int64_t slab_strides[detail::kIndexMax];  // self's strides of the slab dims
  int slab_at[detail::kIndexMax];           // where each slab dim goes in the result
  int slab_dim;
};

// Reads `list` against self (its shape and strides) into `plan`, and the
// result's shape into sizes/result_dim; false after failing the context.
inline bool advanced_index_plan(const rt::OpContext& in, const rt::Tensor& self,
                                rt::OptionalTensorList list, AdvancedIndex& plan, int32_t* sizes,
                                int* result_dim) {
  constexpr int kMax = detail::kIndexMax;
  if (list.size() > static_cast<size_t>(kMax)) {
    in.fail("too many indices for self");
    return false;
  }
  int taken = 0;
  plan.count = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const rt::Optional<rt::Tensor> item = list[i];
    if (!item.has_value()) {
      ++taken;
      continue;
    }
    const rt::Tensor& t = item.value();
    detail::IndexEntry& index = plan.entries[plan.count++];
    index.tensor = &t;
    index.first = taken;
    index.seen = index.where = -1;
    index.count = 0;
    if (t.dtype() == rt::ScalarType::Long || t.dtype() == rt::ScalarType::Int) {
      index.mask = false;
      index.width = 1;
    } else if (t.dtype() == rt::ScalarType::Bool || t.dtype() == rt::ScalarType::Byte) {
      index.mask = true;
      index.width = t.dim();
      for (int64_t p = 0; p < t.numel(); ++p) index.count += detail::mask_at(t, p) ? 1 : 0;
    } else {
      in.fail("indices must be int64, int32, bool or uint8 tensors");
      return false;
    }
    if (taken + index.width > self.dim()) {
      in.fail("too many indices for self");
      return false;
    }
    for (int d = 0; index.mask && d < index.width; ++d) {
      if (t.size(d) != self.size(taken + d)) {
        in.fail("a mask's shape must match self's at the dims it indexes");
        return false;
      }
    }
    taken += index.width;
  }
  // The shape the indices broadcast to (a mask counts as one dim of its true
  // elements).
  plan.dim = 0;
  for (int i = 0; i < plan.count; ++i) {
    const detail::IndexEntry& index = plan.entries[i];
    const int32_t mask_size = static_cast<int32_t>(index.count);
    const int32_t* index_sizes = index.mask ? &mask_size : index.tensor->sizes().data();
    int32_t merged[kMax];
    int merged_dim = 0;
    if (!broadcast_sizes(plan.shape, plan.dim, index_sizes, index.mask ? 1 : index.tensor->dim(),
                         merged, &merged_dim)) {
      in.fail("indices cannot be broadcast together");
      return false;
    }
    for (int d = 0; d < merged_dim; ++d) plan.shape[d] = merged[d];
    plan.dim = merged_dim;
  }
  // Indexed dims next to each other are replaced by the index shape in
  // place; otherwise the index shape comes first (numpy's rule).
  bool adjacent = true;
  for (int i = 1; i < plan.count; ++i) {
    adjacent =
        adjacent && plan.entries[i].first == plan.entries[i - 1].first + plan.entries[i - 1].width;
  }
  plan.insert = plan.count > 0 && adjacent ? plan.entries[0].first : 0;
  bool indexed[kMax] = {};
  for (int i = 0; i < plan.count; ++i) {
    for (int d = 0; d < plan.entries[i].width; ++d) indexed[plan.entries[i].first + d] = true;
  }
  plan.slab_dim = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if (indexed[d]) continue;
    plan.slab_at[plan.slab_dim] =
        plan.slab_dim < plan.insert ? plan.slab_dim : plan.slab_dim + plan.dim;
    plan.slab[plan.slab_dim] = self.size(d);
    plan.slab_strides[plan.slab_dim++] = self.stride(d);
  }
  if (plan.slab_dim + plan.dim > kMax) {
    in.fail("the result has too many dims");
    return false;
  }
  for (int d = 0; d < plan.slab_dim; ++d) sizes[plan.slab_at[d]] = plan.slab[d];
  for (int d = 0; d < plan.dim; ++d) sizes[plan.insert + d] = plan.shape[d];
  *result_dim = plan.slab_dim + plan.dim;
  for (int i = 0; i < plan.count; ++i) {
    detail::IndexEntry& index = plan.entries[i];
    const int own = index.mask ? 1 : index.tensor->dim();
    for (int d = 0; d < plan.dim; ++d) {
      const int source = d - (plan.dim - own);
      const int32_t size = source < 0   ? 1
                           : index.mask ? static_cast<int32_t>(index.count)
                                        : index.tensor->size(source);
      index.step[d] = source < 0 || size == 1 ? 0 : index.mask ? 1 : index.tensor->stride(source);
    }
  }
  return true;
}

// Calls fn(coords, offset) for every position of the broadcast index shape in
// row-major order: its coordinates (plan.dim of them) and the element offset
// in self (the strides the plan was made with) of the slab it picks. Negative
// integer indices count from the end; false after failing (out of range).
template <typename Fn>
bool advanced_index_walk(const rt::OpContext& in, const rt::Tensor& self, AdvancedIndex& plan,
                         Fn&& fn) {
  int64_t positions = 1;
  for (int d = 0; d < plan.dim; ++d) positions *= plan.shape[d];
  for (int64_t p = 0; p < positions; ++p) {
    int64_t coords[detail::kIndexMax];
    for (int64_t d = plan.dim - 1, rest = p; d >= 0; --d) {
      coords[d] = rest % plan.shape[d];
      rest /= plan.shape[d];
    }
    int64_t from = 0;
    for (int i = 0; i < plan.count; ++i) {
      detail::IndexEntry& index = plan.entries[i];
      int64_t at = 0;
      for (int d = 0; d < plan.dim; ++d) at += coords[d] * index.step[d];
      if (index.mask) {
        // The coordinates of the at-th true element.
        int64_t rest = detail::find_true(index, at);
        for (int d = index.width - 1; d >= 0; --d) {
          from += rest % index.tensor->size(d) * self.stride(index.first + d);
          rest /= index.tensor->size(d);
        }
        continue;
      }
      int64_t value = index.tensor->dtype() == rt::ScalarType::Long
                          ? index.tensor->data_as<const int64_t>()[at]
                          : index.tensor->data_as<const int32_t>()[at];
      const int64_t extent = self.size(index.first);
      if (value < 0) value += extent;
      if (value < 0 || value >= extent) {
        in.fail("index is out of range");
        return false;
      }
      from += value * self.stride(index.first);
    }
    fn(coords, from);
  }
  return true;
}

}  // namespace portable
