#include <cstdint>

#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::index.Tensor_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and out; indices are read as they are (int64, int32, or
// bool and uint8 masks).
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

constexpr int kMax = rt::Tensor::kMaxDims;

// One non-None entry of `indices`. An integer tensor picks entries of one
// dim of self; a mask of k dims stands for the k coordinates of its true
// elements (numpy's nonzero), one 1-dim index of length `count` per dim.
struct Index {
  const rt::Tensor* tensor;
  bool mask;
  int first;            // the (first) dim of self it indexes
  int width;            // how many dims of self: 1, or the mask's dims
  int64_t count;        // a mask's number of true elements
  int64_t step[kMax];   // element step per dim of the broadcast index shape
  int64_t seen, where;  // a mask's last found true element: its number and position
};

bool mask_at(const rt::Tensor& mask, int64_t position) { return mask.data_as<const uint8_t>()[mask.offset_of(position)] != 0; }

// The row-major position of the j-th true element of a mask: scans on from
// the last one found, which suits the increasing j of the walk.
int64_t find_true(Index& index, int64_t j) {
  if (j < index.seen) index.seen = index.where = -1;
  while (index.seen < j) {
    if (mask_at(*index.tensor, ++index.where)) ++index.seen;
  }
  return index.where;
}

// Reads the entries and checks them against self; false after failing.
bool read_indices(const rt::OpContext& in, rt::OptionalTensorList list, const rt::Tensor& self, Index* indices,
                  int* count) {
  if (list.size() > static_cast<size_t>(kMax)) {
    in.fail("too many indices for self");
    return false;
  }
  int dim = 0;
  *count = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const rt::Optional<rt::Tensor> item = list[i];
    if (!item.has_value()) {
      ++dim;
      continue;
    }
    const rt::Tensor& t = item.value();
    Index& index = indices[(*count)++];
    index.tensor = &t;
    index.first = dim;
    index.seen = index.where = -1;
    index.count = 0;
    if (t.dtype() == rt::ScalarType::Long || t.dtype() == rt::ScalarType::Int) {
      index.mask = false;
      index.width = 1;
    } else if (t.dtype() == rt::ScalarType::Bool || t.dtype() == rt::ScalarType::Byte) {
      index.mask = true;
      index.width = t.dim();
      for (int64_t p = 0; p < t.numel(); ++p) index.count += mask_at(t, p) ? 1 : 0;
    } else {
      in.fail("indices must be int64, int32, bool or uint8 tensors");
      return false;
    }
    if (dim + index.width > self.dim()) {
      in.fail("too many indices for self");
      return false;
    }
    for (int d = 0; index.mask && d < index.width; ++d) {
      if (t.size(d) != self.size(dim + d)) {
        in.fail("a mask's shape must match self's at the dims it indexes");
        return false;
      }
    }
    dim += index.width;
  }
  return true;
}

}  // namespace

// index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& index_Tensor_out(rt::KernelContext& context, const rt::Tensor& self, rt::OptionalTensorList index_list,
                             rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  Index indices[kMax];
  int count = 0;
  if (!shape_same_dtype<Dtypes>(in, self, out) || !read_indices(in, index_list, self, indices, &count)) {
    return out;
  }
  // The shape the indices broadcast to (a mask counts as one dim of its
  // true elements).
  int32_t shape[kMax];
  int dim = 0;
  for (int i = 0; i < count; ++i) {
    const Index& index = indices[i];
    const int32_t mask_size = static_cast<int32_t>(index.count);
    const int32_t* sizes = index.mask ? &mask_size : index.tensor->sizes().data();
    int32_t merged[kMax];
    int merged_dim = 0;
    if (!broadcast_sizes(shape, dim, sizes, index.mask ? 1 : index.tensor->dim(), merged, &merged_dim)) {
      in.fail("indices cannot be broadcast together");
      return out;
    }
    for (int d = 0; d < merged_dim; ++d) shape[d] = merged[d];
    dim = merged_dim;
  }
  // Indexed dims next to each other are replaced by the index shape in
  // place; otherwise the index shape comes first (numpy's rule).
  bool adjacent = true;
  for (int i = 1; i < count; ++i) adjacent = adjacent && indices[i].first == indices[i - 1].first + indices[i - 1].width;
  const int insert = count > 0 && adjacent ? indices[0].first : 0;
  bool indexed[kMax] = {};
  for (int i = 0; i < count; ++i) {
    for (int d = 0; d < indices[i].width; ++d) indexed[indices[i].first + d] = true;
  }
  // The dims of self no index takes (a slab copied per index position),
  // with where they go in out.
  int32_t slab[kMax];
  int64_t self_strides[kMax], slab_strides[kMax];
  int slab_at[kMax];
  int slab_dim = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if (indexed[d]) continue;
    slab_at[slab_dim] = slab_dim < insert ? slab_dim : slab_dim + dim;
    slab[slab_dim] = self.size(d);
    self_strides[slab_dim++] = self.stride(d);
  }
  if (slab_dim + dim > kMax) {
    in.fail("the result has too many dims");
    return out;
  }
  int32_t sizes[kMax];
  for (int d = 0; d < slab_dim; ++d) sizes[slab_at[d]] = slab[d];
  for (int d = 0; d < dim; ++d) sizes[insert + d] = shape[d];
  if (!resize_out(in, out, sizes, slab_dim + dim) || out.numel() == 0) return out;
  for (int d = 0; d < slab_dim; ++d) slab_strides[d] = out.stride(slab_at[d]);
  for (int i = 0; i < count; ++i) {
    Index& index = indices[i];
    const int own = index.mask ? 1 : index.tensor->dim();
    for (int d = 0; d < dim; ++d) {
      const int source = d - (dim - own);
      const int32_t size = source < 0 ? 1 : index.mask ? static_cast<int32_t>(index.count) : index.tensor->size(source);
      index.step[d] = source < 0 || size == 1 ? 0 : index.mask ? 1 : index.tensor->stride(source);
    }
  }
  int64_t positions = 1;
  for (int d = 0; d < dim; ++d) positions *= shape[d];
  const int64_t element = static_cast<int64_t>(out.element_size());
  for (int64_t p = 0; p < positions; ++p) {
    int64_t coords[kMax];
    for (int64_t d = dim - 1, rest = p; d >= 0; --d) {
      coords[d] = rest % shape[d];
      rest /= shape[d];
    }
    int64_t from = 0, to = 0;
    for (int d = 0; d < dim; ++d) to += coords[d] * out.stride(insert + d);
    for (int i = 0; i < count; ++i) {
      Index& index = indices[i];
      int64_t at = 0;
      for (int d = 0; d < dim; ++d) at += coords[d] * index.step[d];
      if (index.mask) {
        // The coordinates of the at-th true element.
        int64_t rest = find_true(index, at);
        for (int d = index.width - 1; d >= 0; --d) {
          from += rest % index.tensor->size(d) * self.stride(index.first + d);
          rest /= index.tensor->size(d);
        }
        continue;
      }
      int64_t value = index.tensor->dtype() == rt::ScalarType::Long ? index.tensor->data_as<const int64_t>()[at]
                                                                     : index.tensor->data_as<const int32_t>()[at];
      const int64_t extent = self.size(index.first);
      if (value < 0) value += extent;
      if (value < 0 || value >= extent) {
        in.fail("index is out of range");
        return out;
      }
      from += value * self.stride(index.first);
    }
    copy_strided(slab, slab_dim, out.element_size(), static_cast<uint8_t*>(out.data()) + to * element, slab_strides,
                 static_cast<const uint8_t*>(self.data()) + from * element, self_strides);
  }
  return out;
}

}  // namespace portable
