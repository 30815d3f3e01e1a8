#pragma once

#include <cstdint>

#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// sort and topk: along `dim`, each slice of self gives its k first entries
// in the order (value, then position in the slice) - descending values for
// `largest`, ascending otherwise; NaN is larger than every number. The
// position tie-break makes the order total, so the result is what a stable
// sort gives. The k entries are kept as a heap in the out tensors
// themselves (no scratch memory): O(n log k) per slice.
struct SortPlan {
  const rt::Tensor* self;
  rt::Tensor* values;
  rt::Tensor* indices;
  int dim;    // -1 for a 0-dim self (one slice of one element)
  int64_t n;  // slice length
  int64_t k;
  bool largest;
};

namespace detail {

template <typename T>
struct SortSlice {
  using M = opmath_t<T>;
  T* values;
  int64_t* indices;
  int64_t vs, is;  // strides in elements
  bool largest;

  static bool greater(M a, M b) {
    if (a != a) return b == b;  // NaN above every number
    if (b != b) return false;
    return a > b;
  }
  // Entry (a, i) comes before (b, j) in the result.
  bool first(M a, int64_t i, M b, int64_t j) const {
    if (greater(a, b)) return largest;
    if (greater(b, a)) return !largest;
    return i < j;
  }
  bool first(int64_t x, int64_t y) const {
    return first(rt::value_cast<M>(values[x * vs]), indices[x * is],
                 rt::value_cast<M>(values[y * vs]), indices[y * is]);
  }
  void swap(int64_t x, int64_t y) {
    const T v = values[x * vs];
    values[x * vs] = values[y * vs];
    values[y * vs] = v;
    const int64_t i = indices[x * is];
    indices[x * is] = indices[y * is];
    indices[y * is] = i;
  }
  // Heap over slots [0, size): each parent comes after its children in the
  // result order, so slot 0 holds the last of the kept entries.
  void sift_down(int64_t at, int64_t size) {
    for (;;) {
      const int64_t left = 2 * at + 1;
      if (left >= size) return;
      int64_t later = left;
      if (left + 1 < size && first(left, left + 1)) later = left + 1;
      if (!first(at, later)) return;
      swap(at, later);
      at = later;
    }
  }
  void sift_up(int64_t at) {
    while (at > 0) {
      const int64_t parent = (at - 1) / 2;
      if (!first(parent, at)) return;
      swap(parent, at);
      at = parent;
    }
  }
};

}  // namespace detail

// Runs a plan whose out tensors have their shapes; T is self's type.
template <typename T>
void sort_slices(const SortPlan& plan) {
  const rt::Tensor& self = *plan.self;
  const int dim = self.dim();
  const int64_t slices = plan.n == 0 ? 0 : self.numel() / plan.n;
  const int at = plan.dim;
  const int64_t ss = at >= 0 ? self.stride(at) : 0;
  detail::SortSlice<T> slice{nullptr, nullptr, at >= 0 ? plan.values->stride(at) : 0,
                             at >= 0 ? plan.indices->stride(at) : 0, plan.largest};
  for (int64_t s = 0; s < slices; ++s) {
    // The slice's first element in each tensor: s numbers the positions of
    // the other dims in row-major order.
    int64_t self_base = 0, values_base = 0, indices_base = 0;
    int64_t rest = s;
    for (int d = dim - 1; d >= 0; --d) {
      if (d == at) continue;
      const int64_t c = rest % self.size(d);
      rest /= self.size(d);
      self_base += c * self.stride(d);
      values_base += c * plan.values->stride(d);
      indices_base += c * plan.indices->stride(d);
    }
    const T* source = self.data_as<const T>() + self_base;
    slice.values = plan.values->data_as<T>() + values_base;
    slice.indices = plan.indices->data_as<int64_t>() + indices_base;
    if (plan.k == 0) continue;
    for (int64_t i = 0; i < plan.n; ++i) {
      const T value = source[i * ss];
      if (i < plan.k) {
        slice.values[i * slice.vs] = value;
        slice.indices[i * slice.is] = i;
        slice.sift_up(i);
      } else if (slice.first(rt::value_cast<opmath_t<T>>(value), i,
                             rt::value_cast<opmath_t<T>>(slice.values[0]), slice.indices[0])) {
        slice.values[0] = value;
        slice.indices[0] = i;
        slice.sift_down(0, plan.k);
      }
    }
    // Heap sort: the last kept entry moves to the end each time.
    for (int64_t size = plan.k - 1; size > 0; --size) {
      slice.swap(0, size);
      slice.sift_down(0, size);
    }
  }
}

// The checks of sort and topk and the out tensors' shapes (self's, k in
// dim; `whole`: k is the slice length, as for sort); false when the call
// failed. Not a template.
__attribute__((noinline)) inline bool plan_sort(const rt::OpContext& in, int64_t dim_arg, int64_t k,
                                                bool whole, SortPlan* plan) {
  const rt::Tensor& self = *plan->self;
  if (plan->values->dtype() != self.dtype()) {
    in.fail("values must have self's dtype");
    return false;
  }
  if (plan->indices->dtype() != rt::ScalarType::Long) {
    in.fail("indices must be int64");
    return false;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim());
  if (at < 0) return false;
  plan->dim = self.dim() == 0 ? -1 : static_cast<int>(at);
  plan->n = self.dim() == 0 ? 1 : self.size(plan->dim);
  if (whole) k = plan->n;
  if (k < 0 || k > plan->n) {
    in.fail("k is out of range");
    return false;
  }
  plan->k = self.dim() == 0 ? 1 : k;  // torch copies a 0-dim self whatever k is
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d)
    sizes[d] = d == plan->dim ? static_cast<int32_t>(k) : self.size(d);
  return resize_out(in, *plan->values, sizes, self.dim()) &&
         resize_out(in, *plan->indices, sizes, self.dim());
}

}  // namespace portable
