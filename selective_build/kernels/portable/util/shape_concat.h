#pragma once

#include <cstdint>

#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/promotion.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Copies `part` into the block of `out` starting at element `base` (in
// out's layout), converting when the dtypes differ. `sizes`/`part_strides`
// describe part in out's dim numbering (stack passes a size-1 dim).
template <typename Dtypes>
bool shape_place_part(const rt::OpContext& in, rt::Tensor& out, int64_t base,
                      const rt::Tensor& part, const int32_t* sizes, const int64_t* part_strides,
                      int dim) {
  int64_t out_strides[rt::Tensor::kMaxDims] = {};
  shape_strides(out, out_strides);
  uint8_t* to = static_cast<uint8_t*>(out.data()) + base * static_cast<int64_t>(out.element_size());
  if (part.dtype() == out.dtype()) {
    copy_strided(sizes, dim, out.element_size(), to, out_strides, part.data(), part_strides);
    return true;
  }
  CopyConverter converter;
  rt::KernelContext& context = in.context();
  if (!Dtypes::run(context, in.op(), part.dtype(),
                   [&](auto t) { copy_set_source<typename decltype(t)::type>(converter); }) ||
      !Dtypes::run(context, in.op(), out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return false;
  }
  copy_convert_strided(sizes, dim, to, out_strides, out.element_size(),
                       static_cast<const uint8_t*>(part.data()), part_strides, part.element_size(),
                       converter);
  return true;
}

// Checks that `tensors` is not empty, every tensor's dtype against Dtypes and that
// torch's promoted dtype of `tensors` can be cast to out's.
template <typename Dtypes>
bool shape_check_list_dtypes(const rt::OpContext& in, rt::BoxedList tensors,
                             const rt::Tensor& out) {
  if (tensors.size == 0) {
    in.fail("tensors must not be empty");
    return false;
  }
  if (!Dtypes::check(in.context(), in.op(), out.dtype())) return false;
  ScalarType common = out.dtype();
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const ScalarType dtype = tensors.items[i]->to_tensor().dtype();
    if (!Dtypes::check(in.context(), in.op(), dtype)) return false;
    common = i == 0 ? dtype : promote_types(common, dtype);
  }
  if (can_cast(common, out.dtype())) return true;
  in.fail("the tensors' dtype cannot be cast to out's dtype");
  return false;
}

// torch's cat skips 1-dim empty tensors whatever the other tensors' shapes.
inline bool cat_skips(const rt::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

// out's shape for cat: `dim` sizes, the tensors joined along dim `at`.
struct CatShape {
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim;
  int at;
};

// Checks cat's arguments (Dtypes: the calling library's dtypes) and gives out's shape. The
// shape comes from the first tensor cat does not skip; the others must match it but in
// the joined dim.
template <typename Dtypes>
bool check_cat_args(const rt::OpContext& in, rt::BoxedList tensors, int64_t dim_arg,
                    const rt::Tensor& out, CatShape* shape) {
  if (!shape_check_list_dtypes<Dtypes>(in, tensors, out)) return false;
  const rt::Tensor* first = nullptr;
  for (uint32_t i = 0; i < tensors.size && first == nullptr; ++i) {
    if (!cat_skips(tensors.items[i]->to_tensor())) first = &tensors.items[i]->to_tensor();
  }
  if (first == nullptr) first = &tensors.items[0]->to_tensor();
  const int dim = first->dim();
  if (dim == 0) {
    in.fail("zero-dimensional tensors cannot be concatenated");
    return false;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, dim, false);
  if (at < 0) return false;
  for (int d = 0; d < dim; ++d) shape->sizes[d] = d == at ? 0 : first->size(d);
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (cat_skips(t)) continue;
    bool same = t.dim() == dim;
    for (int d = 0; same && d < dim; ++d) same = d == at || t.size(d) == first->size(d);
    if (!same) {
      in.fail("tensors must have the same shape except in dim");
      return false;
    }
    shape->sizes[at] += t.size(static_cast<int>(at));
  }
  shape->dim = dim;
  shape->at = static_cast<int>(at);
  return true;
}

}  // namespace portable
