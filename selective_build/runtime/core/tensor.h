#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace rt {

// Numbering from program.fbs (TensorShapeDynamism).
enum class ShapeDynamism : uint8_t {
  Static = 0,
  DynamicBound = 1,    // may shrink or grow within the planned allocation
  DynamicUnbound = 2,  // treated like DynamicBound: memory is never reallocated
};

// A dense tensor over memory it does not own (planned buffers, constant data
// in the program file, or an input buffer the Method allocated at load).
class Tensor {
 public:
  static constexpr int kMaxDims = 8;

  // Trivial, so arrays of tensors need no construction; write Tensor() or
  // Tensor{} (all zero: an empty Byte tensor) where a fresh one is wanted.
  Tensor() = default;

  // Adopts a shape after checking it (dims <= kMaxDims, sizes >= 0,
  // dim_order a permutation, byte size representable). The capacity becomes
  // the byte size of this shape: the bound later resizes must stay within.
  Status init(ScalarType dtype, const int32_t* sizes, const uint8_t* dim_order, int dim,
              ShapeDynamism dynamism);
  void set_data(void* data) { data_ = data; }

  // Changes the sizes (same number of dims, same dim order). Static tensors
  // accept only their own shape; dynamic ones anything that fits the capacity.
  // On failure the tensor is unchanged.
  Status resize(const int32_t* sizes, int dim);

  ScalarType dtype() const { return dtype_; }
  int dim() const { return dim_; }
  int32_t size(int d) const { return sizes_[d]; }
  int64_t stride(int d) const { return strides_[d]; }
  Span<const int32_t> sizes() const { return Span<const int32_t>(sizes_, dim_); }
  Span<const uint8_t> dim_order() const { return Span<const uint8_t>(dim_order_, dim_); }
  int64_t numel() const { return numel_; }
  size_t element_size() const { return rt::element_size(dtype_); }
  size_t nbytes() const { return static_cast<size_t>(numel_) * element_size(); }
  size_t capacity() const { return capacity_; }
  bool is_dynamic() const { return dynamism_ != ShapeDynamism::Static; }

  // True when elements are laid out in row-major order of the sizes.
  bool is_contiguous() const;
  // True for a 4-D tensor in dim order (0, 2, 3, 1): NCHW sizes, each pixel's channels
  // adjacent (Note [Channels last]).
  bool is_channels_last() const;
  // Element offset (in elements) of the element at a row-major position.
  int64_t offset_of(int64_t linear_index) const;

  void* data() const { return data_; }
  template <typename T>
  T* data_as() const {
    return static_cast<T*>(data_);
  }

 private:
  // Adopts `sizes` (dim_ of them) if their byte size fits the capacity.
  Status set_shape(const int32_t* sizes);

  void* data_;
  size_t capacity_;  // bytes at data_
  int64_t numel_;
  int64_t strides_[kMaxDims];
  int32_t sizes_[kMaxDims];
  uint8_t dim_order_[kMaxDims];
  ScalarType dtype_;
  uint8_t dim_;
  ShapeDynamism dynamism_;
};

}  // namespace rt
