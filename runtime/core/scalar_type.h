#pragma once

#include <cstddef>
#include <cstdint>

namespace rt {

// The numbering is ExecuTorch's (program.fbs and the C++ runtime agree on it);
// it is stored in .pte files and in kernel keys, so it must never change.
// Entries the schema comments out (complex types, Bits*) keep their numbers.
enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Bits1x8 = 18,
  Bits2x4 = 19,
  Bits4x2 = 20,
  Bits8 = 21,
  Bits16 = 22,
  Float8_e5m2 = 23,
  Float8_e4m3fn = 24,
  Float8_e5m2fnuz = 25,
  Float8_e4m3fnuz = 26,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
};

constexpr int kNumScalarTypes = 30;

constexpr bool is_valid_scalar_type(int value) { return value >= 0 && value < kNumScalarTypes; }

namespace detail {
// Bytes per element; sub-byte packed types occupy one byte per stored element.
// A namespace-scope table: a local array in element_size() would be rebuilt
// on the stack at every call with a run-time dtype. alignas(1): GCC would
// align it to 16 and pad the read-only segment of every runner.
alignas(1) inline constexpr uint8_t kElementSizes[kNumScalarTypes] = {
    1, 1, 2,  4, 8, 2, 4, 8,  // Byte .. Double
    4, 8, 16,                 // complex
    1, 1, 1,  4, 2,           // Bool, QInt8, QUInt8, QInt32, BFloat16
    1, 1, 1,  1, 1, 1, 2,     // QUInt4x2 .. Bits16
    1, 1, 1,  1,              // Float8 variants
    2, 4, 8,                  // UInt16 .. UInt64
};
}  // namespace detail

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
