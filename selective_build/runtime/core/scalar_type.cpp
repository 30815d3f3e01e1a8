#include "runtime/core/scalar_type.h"

namespace rt {

const char* scalar_type_name(ScalarType type) {
  const int index = static_cast<int>(type);
  return detail::kScalarTypeNames +
         detail::kScalarTypeNameOffsets[is_valid_scalar_type(index) ? index : kNumScalarTypes];
}

}  // namespace rt
