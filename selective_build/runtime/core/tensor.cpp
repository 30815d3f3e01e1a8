#include "runtime/core/tensor.h"

#include <cstring>

#include "runtime/core/no_plt.h"

namespace rt {

Status Tensor::init(ScalarType dtype, const int32_t* sizes, const uint8_t* dim_order, int dim,
                    ShapeDynamism dynamism) {
  if (dim < 0 || dim > kMaxDims) return Status(Error::NotSupported, "tensor has more than 8 dims");
  uint32_t seen = 0;
  for (int d = 0; d < dim; ++d) {
    seen |= dim_order[d] < dim ? 1u << dim_order[d] : 0x80000000u;  // out of range: never matches
    dim_order_[d] = dim_order[d];
  }
  if (seen != (1u << dim) - 1)
    return Status(Error::InvalidProgram, "tensor dim order is not a permutation");
  if (rt::element_size(dtype) == 0)
    return Status(Error::InvalidProgram, "tensor has an unknown dtype");
  dtype_ = dtype;
  dim_ = static_cast<uint8_t>(dim);
  dynamism_ = dynamism;
  capacity_ = SIZE_MAX;
  RT_TRY(set_shape(sizes));
  capacity_ = nbytes();  // the bound later resizes stay within
  return Status();
}

Status Tensor::resize(const int32_t* sizes, int dim) {
  if (dim != dim_ ||
      (!is_dynamic() && memcmp(sizes, sizes_, static_cast<size_t>(dim) * sizeof(int32_t)) != 0)) {
    return Status(Error::InvalidArgument, "static shape or dim count differs");
  }
  return set_shape(sizes);
}

Status Tensor::set_shape(const int32_t* sizes) {
  // Strides follow the dim order innermost-first: each is the product of the
  // sizes of the dims laid out inside it; numel falls out at the end.
  int64_t strides[kMaxDims];
  int64_t numel = 1;
  bool fits = true;
  for (int k = dim_ - 1; fits && k >= 0; --k) {
    const int d = dim_order_[k];
    strides[d] = numel;
    fits = sizes[d] >= 0 && !__builtin_mul_overflow(numel, static_cast<int64_t>(sizes[d]), &numel);
  }
  int64_t bytes = 0;
  fits = fits && !__builtin_mul_overflow(numel, static_cast<int64_t>(element_size()), &bytes) &&
         static_cast<uint64_t>(bytes) <= capacity_ &&
         static_cast<uint64_t>(bytes) <= (SIZE_MAX >> 1);
  if (!fits) return Status(Error::InvalidArgument, "shape is negative or too large");
  memcpy(sizes_, sizes, static_cast<size_t>(dim_) * sizeof(int32_t));
  memcpy(strides_, strides, static_cast<size_t>(dim_) * sizeof(int64_t));
  numel_ = numel;
  return Status();
}

bool Tensor::is_contiguous() const {
  for (int d = 0; d < dim_; ++d) {
    if (dim_order_[d] != d) return false;
  }
  return true;
}

bool Tensor::is_channels_last() const {
  return dim_ == 4 && dim_order_[0] == 0 && dim_order_[1] == 2 && dim_order_[2] == 3 &&
         dim_order_[3] == 1;
}

int64_t Tensor::offset_of(int64_t linear_index) const {
  int64_t offset = 0;
  for (int d = dim_ - 1; d >= 0; --d) {
    const int64_t size = sizes_[d];
    if (size == 0) return 0;
    offset += (linear_index % size) * strides_[d];
    linear_index /= size;
  }
  return offset;
}

}  // namespace rt
