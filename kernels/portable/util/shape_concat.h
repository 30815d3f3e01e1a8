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

// Checks every tensor's dtype against Dtypes and that torch's promoted
// dtype of `tensors` can be cast to out's.
template <typename Dtypes>
bool shape_check_list_dtypes(const rt::OpContext& in, rt::BoxedList tensors,
                             const rt::Tensor& out) {
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

}  // namespace portable
