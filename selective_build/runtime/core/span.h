#pragma once

#include <cstddef>

namespace rt {

// A non-owning view of `size` contiguous T. Trivial, so arrays of spans need
// no construction: write Span<T>() or {} for an empty one.
template <typename T>
class Span {
 public:
  Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <size_t N>
  constexpr Span(T (&array)[N]) : data_(array), size_(N) {}

  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](size_t index) const { return data_[index]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }

 private:
  T* data_;
  size_t size_;
};

}  // namespace rt
