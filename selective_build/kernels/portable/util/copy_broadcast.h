#pragma once

#include <cstdint>

#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Strides (in elements) that read `source` broadcast to `sizes` (dims aligned
// to the right; a missing or size-1 dim of source repeats, stride 0). False
// when source does not broadcast to that shape.
inline bool broadcast_strides_to(const rt::Tensor& source, const int32_t* sizes, int dim,
                                 int64_t* strides) {
  if (source.dim() > dim) return false;
  const int shift = dim - source.dim();
  for (int d = 0; d < dim; ++d) {
    const int s = d - shift;
    if (s < 0 || source.size(s) == 1) {
      strides[d] = 0;
      continue;
    }
    if (source.size(s) != sizes[d]) return false;
    strides[d] = source.stride(s);
  }
  return true;
}

// ExecuTorch's copy kernels refuse non-blocking copies; so do ours (a CPU
// copy is done when the call returns, but a program asking for one was made
// for another runtime). False after failing the context.
inline bool copy_check_blocking(const rt::OpContext& in, bool non_blocking) {
  if (non_blocking) in.fail("non_blocking copies are not supported");
  return !non_blocking;
}

// Writes `source` broadcast to out's shape (already set) into out, converted
// to out's dtype: copy.out and copy_. Dtypes (a DtypeDispatch) is checked for
// both; false after failing the context.
template <typename Dtypes>
bool copy_broadcast_into(const rt::OpContext& in, rt::Tensor& out, const rt::Tensor& source) {
  int64_t source_strides[rt::Tensor::kMaxDims];
  if (!broadcast_strides_to(source, out.sizes().data(), out.dim(), source_strides)) {
    in.fail("src cannot be broadcast to self's shape");
    return false;
  }
  int64_t out_strides[rt::Tensor::kMaxDims];
  shape_strides(out, out_strides);
  if (source.dtype() == out.dtype()) {
    if (!Dtypes::check(in.context(), in.op(), out.dtype())) return false;
    copy_strided(out.sizes().data(), out.dim(), out.element_size(), out.data(), out_strides,
                 source.data(), source_strides);
    return true;
  }
  CopyConverter converter;
  auto source_side = [&](auto t) { copy_set_source<typename decltype(t)::type>(converter); };
  auto target_side = [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); };
  if (!Dtypes::run(in.context(), in.op(), source.dtype(), source_side) ||
      !Dtypes::run(in.context(), in.op(), out.dtype(), target_side)) {
    return false;
  }
  if (out.numel() == 0) return true;
  copy_convert_strided(out.sizes().data(), out.dim(), static_cast<uint8_t*>(out.data()),
                       out_strides, out.element_size(), static_cast<const uint8_t*>(source.data()),
                       source_strides, source.element_size(), converter);
  return true;
}

}  // namespace portable
