#pragma once

#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// out = self, each element copied or converted to out's dtype, read and written through
// their strides, out resized to self's shape: the body of _to_copy.out and
// _to_dim_order_copy.out over `Dtypes` (the calling kernel's selection), after each has
// checked its own arguments.
template <typename Dtypes>
rt::Tensor& copy_into(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out) {
  CopyConverter converter;
  rt::KernelContext& context = in.context();
  if (!Dtypes::run(context, in.op(), self.dtype(),
                   [&](auto t) { copy_set_source<typename decltype(t)::type>(converter); }) ||
      !Dtypes::run(context, in.op(), out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  if (!rt::resize_out(in, out, self.sizes().data(), self.dim())) return out;
  if (self.dtype() == out.dtype()) {
    copy_same_shape(out, self);
    return out;
  }
  copy_convert(out, self, converter);
  return out;
}

// _to_dim_order_copy.out over `Dtypes`: out takes self's shape in `dim_order`, each element
// copied or converted (copy_into). Portable's kernel, and the optimized one for what it has
// no fast path for.
template <typename Dtypes>
rt::Tensor& to_dim_order_copy(const rt::OpContext& in, const rt::Tensor& self,
                              rt::Optional<rt::IntList> dim_order, rt::Tensor& out) {
  if (!shape_check_dim_order(in, dim_order, self, out)) return out;
  return copy_into<Dtypes>(in, self, out);
}

}  // namespace portable
