#pragma once

#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// A `ScalarType? dtype` argument: -1 for None, else its number.
inline int64_t optional_dtype_arg(rt::Optional<rt::ScalarType> dtype) {
  return dtype.has_value() ? static_cast<int64_t>(dtype.value()) : -1;
}

// Counts through a set of dims in row-major order, keeping the element offset
// of two operands (strides in elements per dim).
struct DimCounter {
  int dim;
  int64_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[2][rt::Tensor::kMaxDims];
  int64_t index[rt::Tensor::kMaxDims];
  int64_t offset[2];

  void clear() {
    dim = 0;
    offset[0] = offset[1] = 0;
  }
  void add(int64_t size, int64_t stride0, int64_t stride1) {
    sizes[dim] = size;
    strides[0][dim] = stride0;
    strides[1][dim] = stride1;
    index[dim] = 0;
    ++dim;
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < dim; ++d) n *= sizes[d];
    return n;
  }
  // Steps to the next position; after the last one, back to the first and
  // false. Out of line: one copy serves every reduction.
  __attribute__((noinline)) bool next() {
    for (int d = dim - 1; d >= 0; --d) {
      offset[0] += strides[0][d];
      offset[1] += strides[1][d];
      if (++index[d] < sizes[d]) return true;
      offset[0] -= strides[0][d] * sizes[d];
      offset[1] -= strides[1][d] * sizes[d];
      index[d] = 0;
    }
    return false;
  }
};

// A reduction of self over some dims into out: `outer` walks self's kept
// dims (operand 0: self, 1: out), `inner` self's reduced dims (operand 0).
struct ReducePlan {
  DimCounter outer;
  DimCounter inner;
  int64_t outer_numel;
  int64_t inner_numel;
};

// Adds dim `d` (negative counts from the end) to `mask`; a 0-dim tensor
// accepts 0 and -1. False when out of range or repeated.
inline bool add_reduce_dim(int64_t d, int rank, uint32_t* mask) {
  const int64_t wrap = rank > 0 ? rank : 1;
  if (d < 0) d += wrap;
  if (d < 0 || d >= wrap) return false;
  if (rank == 0) return true;
  if ((*mask >> d & 1u) != 0) return false;
  *mask |= 1u << d;
  return true;
}

// The dims an `int[1]? dim` argument names: None or an empty list mean
// every dim (when `empty_is_all`). Fails naming the op.
__attribute__((noinline)) inline bool reduce_dims_arg(const rt::OpContext& in,
                                                      rt::Optional<rt::IntList> dim,
                                                      const rt::Tensor& self, bool empty_is_all,
                                                      uint32_t* mask) {
  const int rank = self.dim();
  const uint32_t all = rank > 0 ? (1u << rank) - 1 : 0;
  *mask = 0;
  if (!dim.has_value()) {
    *mask = all;
    return true;
  }
  const rt::IntList dims = dim.value();
  if (dims.size() == 0 && empty_is_all) *mask = all;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!add_reduce_dim(dims[i], rank, mask)) {
      in.fail("dim is out of range or repeated");
      return false;
    }
  }
  return true;
}

// Checks what sum.IntList_out and mean.out take alike (Note [Shared kernel checks],
// shape_copy.h): the dims (their bits in *mask), self's dtype among the kernel's, and
// out's dtype the one `dtype=` asks for.
template <typename Dtypes>
bool check_sum_args(const rt::OpContext& in, const rt::Tensor& self, rt::Optional<rt::IntList> dim,
                    rt::Optional<rt::ScalarType> dtype_arg, const rt::Tensor& out, uint32_t* mask) {
  if (!reduce_dims_arg(in, dim, self, true, mask)) return false;
  if (!Dtypes::check(in.context(), in.op(), self.dtype())) return false;
  if (dtype_arg.has_value() && dtype_arg.value() != out.dtype()) {
    in.fail("out must have the dtype asked for");
    return false;
  }
  return true;
}

// Every dim of self, as a reduction mask.
inline uint32_t all_dims_mask(const rt::Tensor& self) {
  return self.dim() > 0 ? (1u << self.dim()) - 1 : 0;
}

// An `int? dim` argument: None means every dim, an int that one dim.
inline bool reduce_dims_arg(const rt::OpContext& in, rt::Optional<int64_t> dim,
                            const rt::Tensor& self, uint32_t* mask) {
  const int rank = self.dim();
  *mask = 0;
  if (!dim.has_value()) {
    *mask = rank > 0 ? (1u << rank) - 1 : 0;
    return true;
  }
  if (add_reduce_dim(dim.value(), rank, mask)) return true;
  in.fail("dim is out of range");
  return false;
}

// Resizes out to self's shape reduced over `mask` (reduced dims dropped, or
// kept as 1 with keepdim) and plans the walk. Not a template: shared.
__attribute__((noinline)) inline bool plan_reduce(const rt::OpContext& in, const rt::Tensor& self,
                                                  uint32_t mask, bool keepdim, rt::Tensor& out,
                                                  ReducePlan* plan) {
  const int rank = self.dim();
  int32_t sizes[rt::Tensor::kMaxDims];
  int out_dims = 0;
  for (int d = 0; d < rank; ++d) {
    const bool reduced = (mask >> d & 1u) != 0;
    if (!reduced || keepdim) sizes[out_dims++] = reduced ? 1 : self.size(d);
  }
  if (!resize_out(in, out, sizes, out_dims)) return false;
  plan->outer.clear();
  plan->inner.clear();
  int o = 0;
  for (int d = 0; d < rank; ++d) {
    const bool reduced = (mask >> d & 1u) != 0;
    if (reduced) {
      plan->inner.add(self.size(d), self.stride(d), 0);
      if (keepdim) ++o;
    } else {
      plan->outer.add(self.size(d), self.stride(d), out.stride(o++));
    }
  }
  plan->outer_numel = plan->outer.numel();
  plan->inner_numel = plan->inner.numel();
  return true;
}

// Calls fn(self_offset, out_offset) for every output position, then steps
// `plan.inner` through the reduced elements inside fn via next().
template <typename Fn>
void for_each_reduced(ReducePlan& plan, Fn&& fn) {
  if (plan.outer_numel == 0) return;
  do {
    fn(plan.outer.offset[0], plan.outer.offset[1]);
  } while (plan.outer.next());
}

// The variance over a planned reduction (var, var_mean): two passes over each output's
// elements in double, the mean and then the squares about it, divided by
// max(0, n - correction) (0 gives inf or NaN, as torch). `store(out_offset, variance, mean)`
// takes each output's results.
template <typename T, typename Store>
void reduce_variance(ReducePlan& plan, const T* x, double correction, Store&& store) {
  const int64_t n = plan.inner_numel;
  const double divisor =
      static_cast<double>(n) - correction > 0 ? static_cast<double>(n) - correction : 0.0;
  for_each_reduced(plan, [&](int64_t so, int64_t oo) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      sum += rt::value_cast<double>(x[so + plan.inner.offset[0]]);
      plan.inner.next();
    }
    const double mean = sum / static_cast<double>(n);
    double squares = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double d = rt::value_cast<double>(x[so + plan.inner.offset[0]]) - mean;
      squares += d * d;
      plan.inner.next();
    }
    store(oo, squares / divisor, mean);
  });
}

}  // namespace portable
