#include "runtime/core/scalar_type.h"

namespace rt {

const char* scalar_type_name(ScalarType type) {
  // One packed string and a table of offsets into it: no relocations, no
  // padding to the longest name.
  static constexpr char kNames[] =
      "Byte\0Char\0Short\0Int\0Long\0Half\0Float\0Double\0ComplexHalf\0ComplexFloat\0ComplexDouble"
      "\0Bool\0"
      "QInt8\0QUInt8\0QInt32\0BFloat16\0QUInt4x2\0QUInt2x4\0Bits1x8\0Bits2x4\0Bits4x2\0Bits8\0Bits1"
      "6\0"
      "Float8_e5m2\0Float8_e4m3fn\0Float8_e5m2fnuz\0Float8_"
      "e4m3fnuz\0UInt16\0UInt32\0UInt64\0Unknown";
  static constexpr uint8_t kOffsets[kNumScalarTypes + 1] = {
      0,   5,   10,  16,  20,  25,  30,  36,  43,  55,  68,  82,  87,  93,  100, 107,
      116, 125, 134, 142, 150, 158, 164, 171, 183, 197, 213, 229, 236, 243, 250};
  static_assert(sizeof kNames == 258, "kOffsets must be updated with kNames");
  const int index = static_cast<int>(type);
  return kNames + kOffsets[is_valid_scalar_type(index) ? index : kNumScalarTypes];
}

}  // namespace rt
