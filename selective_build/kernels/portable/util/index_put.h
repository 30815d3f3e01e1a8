#pragma once

#include <cstdint>

#include "kernels/portable/util/copy_broadcast.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/shape_advanced_index.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

namespace detail {

// target[i] += source[i] over a strided block (bool adds as "or", integers wrap).
template <typename T>
void add_strided(const int32_t* sizes, int dim, T* target, const int64_t* target_strides,
                 const T* source, const int64_t* source_strides) {
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 0) return;
  }
  using M = opmath_t<T>;
  StridedWalk<2> walk;
  walk.init(sizes, dim);
  walk.set_operand_strides(0, target_strides);
  walk.set_operand_strides(1, source_strides);
  const int64_t n = walk.row_size();
  const int64_t st = dim > 0 ? walk.row_stride(0) : 0, ss = dim > 0 ? walk.row_stride(1) : 0;
  do {
    T* to = target + walk.offset(0);
    const T* from = source + walk.offset(1);
    for (int64_t i = 0; i < n; ++i) {
      to[i * st] = rt::value_cast<T>(
          op_add<M>(rt::value_cast<M>(to[i * st]), rt::value_cast<M>(from[i * ss])));
    }
  } while (walk.next_row());
}

}  // namespace detail

// index_put and index_put_: `target` (already holding self's values) gets
// `values`, broadcast to the shape of target[indices], written (or, with
// `accumulate`, added) at those positions, in row-major order of the index
// positions (a later write to the same element wins). Dtypes is the
// kernel's DtypeDispatch; false after failing the context.
template <typename Dtypes>
bool index_put_into(const rt::OpContext& in, rt::Tensor& target, rt::OptionalTensorList indices,
                    const rt::Tensor& values, bool accumulate) {
  if (!Dtypes::check(in.context(), in.op(), target.dtype())) return false;
  if (values.dtype() != target.dtype()) {
    in.fail("values must have self's dtype");
    return false;
  }
  AdvancedIndex plan;
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!advanced_index_plan(in, target, indices, plan, sizes, &dim)) return false;
  int64_t value_strides[rt::Tensor::kMaxDims];
  if (!broadcast_strides_to(values, sizes, dim, value_strides)) {
    in.fail("values cannot be broadcast to the indexed shape");
    return false;
  }
  int64_t slab_value_strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < plan.slab_dim; ++d) slab_value_strides[d] = value_strides[plan.slab_at[d]];
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 0) return true;  // nothing is indexed; the checks above still ran
  }
  const int64_t element = static_cast<int64_t>(target.element_size());
  uint8_t* to = static_cast<uint8_t*>(target.data());
  const uint8_t* from = static_cast<const uint8_t*>(values.data());
  if (!accumulate) {
    return advanced_index_walk(in, target, plan, [&](const int64_t* coords, int64_t at) {
      int64_t base = 0;
      for (int d = 0; d < plan.dim; ++d) base += coords[d] * value_strides[plan.insert + d];
      copy_strided(plan.slab, plan.slab_dim, target.element_size(), to + at * element,
                   plan.slab_strides, from + base * element, slab_value_strides);
    });
  }
  bool ok = true;
  Dtypes::run(in.context(), in.op(), target.dtype(), [&](auto t) {
    using T = typename decltype(t)::type;
    ok = advanced_index_walk(in, target, plan, [&](const int64_t* coords, int64_t at) {
      int64_t base = 0;
      for (int d = 0; d < plan.dim; ++d) base += coords[d] * value_strides[plan.insert + d];
      detail::add_strided<T>(plan.slab, plan.slab_dim, target.data_as<T>() + at, plan.slab_strides,
                             values.data_as<const T>() + base, slab_value_strides);
    });
  });
  return ok;
}

}  // namespace portable
