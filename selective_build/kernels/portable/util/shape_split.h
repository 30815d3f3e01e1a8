#pragma once

#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// split_copy and split_with_sizes_copy: self cut along `dim_arg` into the
// tensors of `outs`, in order. Part i has (*sizes)[i] entries of the dim;
// without a sizes list every part has `chunk` entries but the last, which
// has what is left. Dtypes are masks as in DtypeDispatch. Moves bytes only,
// so one copy serves every dtype.
__attribute__((noinline)) inline void shape_split(const rt::OpContext& in, uint32_t supported,
                                                  uint32_t enabled, const rt::Tensor& self,
                                                  int64_t dim_arg, rt::BoxedList outs,
                                                  const rt::IntList* sizes, int64_t chunk) {
  if (!in.context().check_dtype(in.op(), self.dtype(), supported, enabled)) return;
  if (self.dim() == 0) return in.fail("self must have at least 1 dim");
  const int64_t at = shape_wrap_dim(in, dim_arg, self.dim(), false);
  if (at < 0) return;
  const int d_at = static_cast<int>(at);
  const int64_t extent = self.size(d_at);
  int64_t parts = 0;
  if (sizes != nullptr) {
    int64_t sum = 0;
    for (size_t i = 0; i < sizes->size(); ++i) {
      if ((*sizes)[i] < 0) return in.fail("split_sizes must not be negative");
      sum += (*sizes)[i];
    }
    if (sum != extent) return in.fail("split_sizes must add up to self's size in dim");
    parts = static_cast<int64_t>(sizes->size());
  } else {
    if (chunk < 0 || (chunk == 0 && extent != 0)) return in.fail("split_size must be positive");
    parts = chunk == 0 || extent == 0 ? 1 : (extent + chunk - 1) / chunk;
  }
  if (parts != static_cast<int64_t>(outs.size)) return in.fail("out must have one tensor per part");
  for (uint32_t i = 0; i < outs.size; ++i) {
    if (outs.items[i]->to_tensor().dtype() != self.dtype())
      return in.fail("out tensors must have self's dtype");
  }
  int32_t part_sizes[rt::Tensor::kMaxDims];
  int64_t self_strides[rt::Tensor::kMaxDims];
  int64_t out_strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self.dim(); ++d) part_sizes[d] = self.size(d);
  shape_strides(self, self_strides);
  const int64_t element = static_cast<int64_t>(self.element_size());
  int64_t offset = 0;
  for (uint32_t i = 0; i < outs.size; ++i) {
    rt::Tensor& out = outs.items[i]->to_tensor();
    const int64_t left = extent - offset;
    const int64_t length = sizes != nullptr ? (*sizes)[i] : (chunk < left ? chunk : left);
    part_sizes[d_at] = static_cast<int32_t>(length);
    if (!resize_out(in, out, part_sizes, self.dim())) return;
    shape_strides(out, out_strides);
    copy_strided(part_sizes, self.dim(), self.element_size(), out.data(), out_strides,
                 static_cast<const uint8_t*>(self.data()) + offset * self_strides[d_at] * element,
                 self_strides);
    offset += length;
  }
}

}  // namespace portable
