#pragma once

#include <type_traits>

#include "runtime/core/half.h"

namespace rt {

template <typename T>
struct is_reduced_float : std::integral_constant<bool, std::is_same<T, Half>::value ||
                                                           std::is_same<T, BFloat16>::value> {};

// static_cast between the element types of tensors and scalars, with torch's
// meaning: to bool is "!= 0", and 16-bit floats go through float.
template <typename To, typename From>
To value_cast(From value) {
  if constexpr (std::is_same<To, From>::value) {
    return value;
  } else if constexpr (is_reduced_float<From>::value) {
    return value_cast<To>(static_cast<float>(value));
  } else if constexpr (std::is_same<To, bool>::value) {
    return value != From(0);
  } else if constexpr (is_reduced_float<To>::value) {
    return To(static_cast<float>(value));
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace rt
