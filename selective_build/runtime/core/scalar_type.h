#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/scalar_types.h"

namespace rt {

// The enum, its size and name tables: runtime/core/scalar_types.h, generated from
// codegen/scalar_type.py (the one ScalarType table).

constexpr bool is_valid_scalar_type(int value) { return value >= 0 && value < kNumScalarTypes; }

// 0 for a number that is not a ScalarType.
constexpr size_t element_size(ScalarType type) {
  const int index = static_cast<int>(type);
  return is_valid_scalar_type(index) ? detail::kElementSizes[index] : 0;
}

// The C++ enumerator name ("Float"), as error messages and the runner print it.
const char* scalar_type_name(ScalarType type);

constexpr bool is_floating_type(ScalarType type) {
  return type == ScalarType::Half || type == ScalarType::Float || type == ScalarType::Double ||
         type == ScalarType::BFloat16;
}

constexpr bool is_integral_type(ScalarType type, bool include_bool) {
  return (type >= ScalarType::Byte && type <= ScalarType::Long) ||
         (include_bool && type == ScalarType::Bool);
}

}  // namespace rt
