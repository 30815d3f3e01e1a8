#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Helpers of the shape and copy kernels (view, expand, select, slice, cat,
// flip, transpose...): each moves elements without looking at their values,
// so one copy of every loop serves every dtype of the same element size.

namespace detail {

template <typename W>
void copy_walk_rows(StridedWalk<2>& walk, uint8_t* out, const uint8_t* source) {
  const int64_t n = walk.row_size(), so = walk.row_stride(0), ss = walk.row_stride(1);
  if (so == 1 && ss == 1) {
    // Dense rows (a view, a select, an expand of a whole tensor, the heads of attention):
    // one block move per row instead of a scalar loop at the library's -Os.
    do {
      memmove(reinterpret_cast<W*>(out) + walk.offset(0),
              reinterpret_cast<const W*>(source) + walk.offset(1),
              static_cast<size_t>(n) * sizeof(W));
    } while (walk.next_row());
    return;
  }
  do {
    W* to = reinterpret_cast<W*>(out) + walk.offset(0);
    const W* from = reinterpret_cast<const W*>(source) + walk.offset(1);
    for (int64_t i = 0; i < n; ++i) to[i * so] = from[i * ss];
  } while (walk.next_row());
}

}  // namespace detail

// Copies a block of `sizes` (row-major walk) between two strided layouts:
// element (i0, i1, ...) goes from source + sum(i_d * source_strides[d]) to
// out + sum(i_d * out_strides[d]) (strides in elements; zero or negative
// allowed on the source). Element size 1, 2, 4 or 8.
__attribute__((noinline)) inline void copy_strided(const int32_t* sizes, int dim, size_t element,
                                                   void* out, const int64_t* out_strides,
                                                   const void* source,
                                                   const int64_t* source_strides) {
  int64_t so[rt::Tensor::kMaxDims] = {}, ss[rt::Tensor::kMaxDims] = {};  // 0-dim: one element
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 0) return;
    so[d] = sizes[d] != 1 ? out_strides[d] : 0;
    ss[d] = sizes[d] != 1 ? source_strides[d] : 0;
  }
  StridedWalk<2> walk;
  walk.init(sizes, dim);
  walk.set_operand_strides(0, so);
  walk.set_operand_strides(1, ss);
  uint8_t* to = static_cast<uint8_t*>(out);
  const uint8_t* from = static_cast<const uint8_t*>(source);
  switch (element) {
    case 1:
      return detail::copy_walk_rows<uint8_t>(walk, to, from);
    case 2:
      return detail::copy_walk_rows<uint16_t>(walk, to, from);
    case 4:
      return detail::copy_walk_rows<uint32_t>(walk, to, from);
    default:
      return detail::copy_walk_rows<uint64_t>(walk, to, from);
  }
}

// out's strides, in elements.
inline void shape_strides(const rt::Tensor& tensor, int64_t* strides) {
  for (int d = 0; d < tensor.dim(); ++d) strides[d] = tensor.stride(d);
}

// Copies a strided view into `out`: walking out's (already set) shape in
// row-major order, out's element at index (i0, i1, ...) is read from
// `source` at element base + sum(i_d * strides[d]). Strides may be zero
// (expand) or negative (flip).
inline void copy_view(rt::Tensor& out, const void* source, int64_t base, const int64_t* strides) {
  int64_t out_strides[rt::Tensor::kMaxDims];
  shape_strides(out, out_strides);
  const size_t element = out.element_size();
  copy_strided(out.sizes().data(), out.dim(), element, out.data(), out_strides,
               static_cast<const uint8_t*>(source) + base * static_cast<int64_t>(element), strides);
}

// Copies `self` into `out` as is: same shape, any dim orders.
inline void copy_same_shape(rt::Tensor& out, const rt::Tensor& self) {
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) strides[d] = self.stride(d);
  copy_view(out, self.data(), 0, strides);
}

// Copies self's elements into out in the row-major order of each (equal
// numel, any shapes and dim orders): reshape.
__attribute__((noinline)) inline void copy_reshape(rt::Tensor& out, const rt::Tensor& self) {
  const size_t element = out.element_size();
  if (self.is_contiguous() && out.is_contiguous()) {
    if (out.numel() > 0)
      memmove(out.data(), self.data(), static_cast<size_t>(out.numel()) * element);
    return;
  }
  uint8_t* to = static_cast<uint8_t*>(out.data());
  const uint8_t* from = static_cast<const uint8_t*>(self.data());
  for (int64_t i = 0; i < out.numel(); ++i) {
    memcpy(to + out.offset_of(i) * element, from + self.offset_of(i) * element, element);
  }
}

// A dim argument checked against `dim` dims (a 0-dim tensor takes -1 and 0
// when `scalar_ok`); -1 after failing the context.
inline int64_t shape_wrap_dim(const rt::OpContext& in, int64_t d, int dim, bool scalar_ok = true) {
  const int64_t n = dim == 0 && scalar_ok ? 1 : dim;
  if (d < 0) d += n;
  if (d < 0 || d >= n) {
    in.fail("dim is out of range");
    return -1;
  }
  return d;
}

// torch's clamping of a slice bound into [0, extent].
inline int64_t shape_clamp_bound(int64_t bound, int64_t extent) {
  if (bound < 0) bound += extent;
  return bound < 0 ? 0 : bound > extent ? extent : bound;
}

// Note [A step past the extent]
// A positive step longer than a dim's extent takes what a step of extent + 1 takes: the
// first element of the range (none of an empty one). A program's step may be anything up
// to INT64_MAX, and the step kernels (slice_copy, slice_scatter, unfold_copy) compute a
// count with `+ step` and a view's stride as `stride * step`: both overflowed (UBSan,
// "signed integer overflow", found by the runner fuzz: tests/fuzz/). So they bound the
// step first; after it, stride * step stays within the tensor's own element count.
inline int64_t shape_bound_step(int64_t step, int64_t extent) {
  return step <= extent ? step : extent + 1;
}

// Note [Shared kernel checks]
// What a kernel checks before it computes, the shape it gives out and the formula of each
// element are the operator's, not the library's: when the portable and the optimized
// library (or the quantized one) both serve an operator, they call one helper here, in
// kernels/portable/util/, so that the two cannot drift apart. Per operator:
//   check_<op>_args<Dtypes>(in, <arguments>, out..., ...)  its checks, in torch's order, the
//       first failure reported through `in`; Dtypes is the calling library's DtypeDispatch,
//       so a library with fewer dtypes refuses the others with its own message. Where the
//       shape of out falls out of the checks it is given too (sizes, a plan struct).
//   <op>_out_sizes(<arguments>, sizes)                      out's shape, when apart.
//   an element functor (Add, Neg, Gelu, Softmax, Mean...)  the formula, run by portable's
//       templates on any dtype and by an optimized kernel's strided path at float; its
//       vector loops compute the same expression.
// They are header-only: a template over the caller's Dtypes or an inline function,
// compiled into the one kernel that calls it. The element functors sit in an anonymous
// namespace of their header: a kernel's templates instantiated over a functor of a named
// namespace get vague linkage, which the compiler keeps out of line (add's binary_op, 194
// bytes, no longer inlined into add_out), while over an internal one they are the
// kernel's own and inline as when each kernel kept its functor, so a runner links no more
// than before. They take the kernel's OpContext, not its context and name: one made
// inside the helper cost 33 to 43 bytes a kernel (layer norm, batch norm). A helper two
// kernels of one runner call (plan_pool2d, plan_matmul) is noinline instead, and linked
// once.

// Checks out's dtype is self's and that the kernel's dtype set takes it.
template <typename Dtypes>
bool shape_same_dtype(const rt::OpContext& in, const rt::Tensor& self, const rt::Tensor& out) {
  if (!Dtypes::check(in.context(), in.op(), self.dtype())) return false;
  if (out.dtype() == self.dtype()) return true;
  in.fail("out must have self's dtype");
  return false;
}

// out's shape for permute_copy: out's dim d is self's dim dims[d], of that size, read at
// that stride of self (none for a 0-dim self, walked as one element).
struct PermuteShape {
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims] = {};
};

// Checks permute_copy's arguments (out has self's dtype, `dims` names every dim of self
// once) and gives out's shape.
template <typename Dtypes>
bool check_permute_copy_args(const rt::OpContext& in, const rt::Tensor& self, rt::IntList dims,
                             const rt::Tensor& out, PermuteShape* shape) {
  if (!shape_same_dtype<Dtypes>(in, self, out)) return false;
  const int dim = self.dim();
  if (dims.size() != static_cast<size_t>(dim)) {
    in.fail("dims must name every dim of self once");
    return false;
  }
  uint32_t seen = 0;
  for (int d = 0; d < dim; ++d) {
    int64_t source = dims[d];
    if (source < 0) source += dim;
    if (source < 0 || source >= dim || (seen & (1u << source)) != 0) {
      in.fail("dims must name every dim of self once");
      return false;
    }
    seen |= 1u << source;
    shape->sizes[d] = self.size(static_cast<int>(source));
    shape->strides[d] = self.stride(static_cast<int>(source));
  }
  return true;
}

// Checks an optional int[] dim_order argument (dim_order_ops): `out` is laid
// out in it; None accepts any layout of out.
inline bool shape_check_dim_order(const rt::OpContext& in, rt::Optional<rt::IntList> dim_order,
                                  const rt::Tensor& self, const rt::Tensor& out) {
  if (!dim_order.has_value()) return true;
  const rt::IntList order = dim_order.value();
  bool same = order.size() == static_cast<size_t>(out.dim()) && out.dim() == self.dim();
  for (size_t d = 0; same && d < order.size(); ++d) same = order[d] == out.dim_order()[d];
  if (!same) in.fail("out's dim order is not dim_order");
  return same;
}

}  // namespace portable
