#pragma once

#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_index.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// scatter and scatter_add: out gets self's shape and values, then for every
// element of `index` (row-major, coordinates c) the element of out at c with
// `dim` replaced by the index value is written from src at c (or from a
// scalar, without src). index has self's number of dims (a 0-dim self takes a
// 0- or 1-dim index) and no larger size than self outside dim, nor than src
// anywhere. Calls fn(out_offset, src_offset) per element, in order, after
// the checks; false after failing the context.
template <typename Fn>
bool scatter_walk(const rt::OpContext& in, const rt::Tensor& self, int64_t dim_arg,
                  const rt::Tensor& index, const rt::Tensor* src, rt::Tensor& out, Fn&& fn) {
  if (!shape_check_index_dtype(in, index)) return false;
  if (src != nullptr && src->dtype() != self.dtype()) {
    in.fail("src must have self's dtype");
    return false;
  }
  const int dim = self.dim();
  const int64_t at = shape_wrap_dim(in, dim_arg, dim);
  if (at < 0) return false;
  const int index_dim = index.dim();
  bool fits = dim == 0 ? index_dim <= 1 && index.numel() <= 1 : index_dim == dim;
  for (int d = 0; fits && dim > 0 && d < dim; ++d) fits = d == at || index.size(d) <= self.size(d);
  if (!fits) {
    in.fail("index must have self's dims and no larger size outside dim");
    return false;
  }
  if (src != nullptr && index.numel() > 0) {
    bool within = src->dim() == index_dim || (dim == 0 && src->dim() <= 1);
    for (int d = 0; within && src->dim() == index_dim && d < index_dim; ++d)
      within = index.size(d) <= src->size(d);
    if (!within) {
      in.fail("index must have src's dims and no larger size");
      return false;
    }
  }
  if (!resize_out(in, out, self.sizes().data(), dim)) return false;
  copy_same_shape(out, self);
  const int64_t extent = dim == 0 ? 1 : self.size(static_cast<int>(at));
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t k = shape_index_at(in, index, i, extent);
    if (k < 0) return false;
    int64_t to = 0, from = 0, rest = i;
    for (int d = index_dim - 1; d >= 0 && dim > 0; --d) {
      const int64_t c = rest % index.size(d);
      rest /= index.size(d);
      to += (d == at ? k : c) * out.stride(d);
      if (src != nullptr) from += c * src->stride(d);
    }
    fn(to, from);
  }
  return true;
}

}  // namespace portable
