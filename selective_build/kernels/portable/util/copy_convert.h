#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/half.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {

// Dtype conversion for the copy kernels (_to_dim_order_copy, full...):
// values travel as int64_t from integral and bool sources and as double
// from floating ones, so a conversion needs one load function per source
// dtype and two store functions per target dtype instead of a loop per pair.
// Integer targets wrap as torch's casts do on common hardware (floating values
// as Note [Float to integer copy] says); bool targets take "!= 0" (NaN is
// true); 16-bit floats round through float.
struct CopyConverter {
  bool floating_source = false;
  int64_t (*load_int)(const uint8_t*) = nullptr;
  double (*load_double)(const uint8_t*) = nullptr;
  void (*store_int)(uint8_t*, int64_t) = nullptr;
  void (*store_double)(uint8_t*, double) = nullptr;
};

namespace detail {

template <typename T>
constexpr bool kCopyFloating = std::is_floating_point<T>::value || rt::is_reduced_float<T>::value;

template <typename From>
int64_t copy_load_int(const uint8_t* source) {
  From value;
  memcpy(&value, source, sizeof value);
  return static_cast<int64_t>(value);
}

template <typename From>
double copy_load_double(const uint8_t* source) {
  From value;
  memcpy(&value, source, sizeof value);
  return rt::value_cast<double>(value);
}

template <typename To>
void copy_store_int(uint8_t* target, int64_t value) {
  const To converted = rt::value_cast<To>(value);
  memcpy(target, &converted, sizeof converted);
}

// Note [Float to integer copy]
// C++ leaves a floating-to-integer cast undefined when the truncated value does
// not fit (NaN, the infinities, huge magnitudes), and torch's casts give what
// the hardware gives there, which differs between x86 and Arm. The copy kernels
// define it: NaN gives 0; a value beyond int64's range (the infinities too)
// gives the target's lowest or highest value; any other value is truncated
// toward zero to int64 and wraps to the target's width, as torch's casts do on
// x86 for 8- and 16-bit targets (and for every target in range, where torch is
// defined: there all of these agree).
template <typename To>
To copy_double_to_integer(double value) {
  constexpr double kTwoTo63 = 9223372036854775808.0;  // exact in a double
  if (value != value) return To(0);
  if (value >= kTwoTo63) return std::numeric_limits<To>::max();
  if (value < -kTwoTo63) return std::numeric_limits<To>::lowest();
  return static_cast<To>(static_cast<int64_t>(value));
}

template <typename To>
void copy_store_double(uint8_t* target, double value) {
  To converted;
  if constexpr (std::is_integral<To>::value && !std::is_same<To, bool>::value) {
    converted = copy_double_to_integer<To>(value);
  } else {
    converted = rt::value_cast<To>(value);
  }
  memcpy(target, &converted, sizeof converted);
}

}  // namespace detail

// Sets the load side of `converter` for the C++ type T.
template <typename T>
void copy_set_source(CopyConverter& converter) {
  converter.floating_source = detail::kCopyFloating<T>;
  if constexpr (detail::kCopyFloating<T>) {
    converter.load_double = &detail::copy_load_double<T>;
  } else {
    converter.load_int = &detail::copy_load_int<T>;
  }
}

// Sets the store side of `converter` for the C++ type T.
template <typename T>
void copy_set_target(CopyConverter& converter) {
  converter.store_int = &detail::copy_store_int<T>;
  converter.store_double = &detail::copy_store_double<T>;
}

// Writes `scalar` converted by `converter`'s store side to `target`.
inline void copy_store_scalar(const CopyConverter& converter, const rt::Scalar& scalar,
                              uint8_t* target) {
  if (scalar.is_floating()) {
    converter.store_double(target, scalar.to<double>());
  } else {
    converter.store_int(target, scalar.to<int64_t>());
  }
}

// Converts a block of `sizes` between two strided layouts (strides in
// elements; element sizes eo and es): see copy_strided in shape_copy.h.
__attribute__((noinline)) inline void copy_convert_strided(const int32_t* sizes, int dim,
                                                           uint8_t* out, const int64_t* out_strides,
                                                           size_t eo, const uint8_t* source,
                                                           const int64_t* source_strides, size_t es,
                                                           const CopyConverter& converter) {
  for (int d = 0; d < dim; ++d) {
    if (sizes[d] == 0) return;
  }
  StridedWalk<2> walk;
  walk.init(sizes, dim);
  walk.set_operand_strides(0, out_strides);
  walk.set_operand_strides(1, source_strides);
  const int64_t n = walk.row_size();
  const int64_t so = dim > 0 ? walk.row_stride(0) * static_cast<int64_t>(eo) : 0;
  const int64_t ss = dim > 0 ? walk.row_stride(1) * static_cast<int64_t>(es) : 0;
  do {
    uint8_t* to = out + walk.offset(0) * static_cast<int64_t>(eo);
    const uint8_t* from = source + walk.offset(1) * static_cast<int64_t>(es);
    if (converter.floating_source) {
      for (int64_t i = 0; i < n; ++i)
        converter.store_double(to + i * so, converter.load_double(from + i * ss));
    } else {
      for (int64_t i = 0; i < n; ++i)
        converter.store_int(to + i * so, converter.load_int(from + i * ss));
    }
  } while (walk.next_row());
}

// out = self converted elementwise (same shape, any dim orders).
inline void copy_convert(rt::Tensor& out, const rt::Tensor& self, const CopyConverter& converter) {
  int64_t so[rt::Tensor::kMaxDims] = {}, ss[rt::Tensor::kMaxDims] = {};
  for (int d = 0; d < out.dim(); ++d) {
    so[d] = out.stride(d);
    ss[d] = self.stride(d);
  }
  copy_convert_strided(out.sizes().data(), out.dim(), static_cast<uint8_t*>(out.data()), so,
                       out.element_size(), static_cast<const uint8_t*>(self.data()), ss,
                       self.element_size(), converter);
}

// Fills every element of `out` with the `element_size` bytes at `value`.
__attribute__((noinline)) inline void copy_fill(rt::Tensor& out, const uint8_t* value) {
  const size_t element = out.element_size();
  uint8_t* to = static_cast<uint8_t*>(out.data());
  for (int64_t i = 0; i < out.numel(); ++i)
    memcpy(to + static_cast<size_t>(i) * element, value, element);
}

}  // namespace portable
