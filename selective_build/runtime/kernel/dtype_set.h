#pragma once

#include <cstdint>

#include "runtime/core/scalar_type.h"

namespace rt {

// A set of ScalarTypes as a bit mask: bit n is ScalarType n.
class DtypeSet {
 public:
  constexpr DtypeSet() : bits_(0) {}
  constexpr explicit DtypeSet(uint32_t bits) : bits_(bits) {}

  static constexpr DtypeSet all() { return DtypeSet((1u << kNumScalarTypes) - 1); }
  static constexpr DtypeSet of(ScalarType type) {
    return DtypeSet(1u << static_cast<unsigned>(type));
  }

  constexpr uint32_t bits() const { return bits_; }
  constexpr bool contains(ScalarType type) const {
    return is_valid_scalar_type(static_cast<int>(type)) &&
           (bits_ >> static_cast<unsigned>(type) & 1u) != 0;
  }
  constexpr int count() const {
    int n = 0;
    for (uint32_t rest = bits_; rest != 0; rest &= rest - 1) ++n;
    return n;
  }
  constexpr DtypeSet operator|(DtypeSet other) const { return DtypeSet(bits_ | other.bits_); }
  constexpr DtypeSet operator&(DtypeSet other) const { return DtypeSet(bits_ & other.bits_); }

 private:
  uint32_t bits_;
};

// One entry of the generated selected_op_variants.h.
struct OpDtypes {
  const char* op;  // "aten::add.out"
  DtypeSet dtypes;
};

// One entry of a kernel source's generated declared_op_dtypes.h (kernels/common/declared_dtypes.h).
struct ArgumentDtypes {
  const char* op;        // "aten::native_dropout.out"
  const char* argument;  // "out1", or "" for the entry's `dtypes:`
  DtypeSet dtypes;
};

constexpr DtypeSet kFloatingDtypes =
    DtypeSet::of(ScalarType::Half) | DtypeSet::of(ScalarType::Float) |
    DtypeSet::of(ScalarType::Double) | DtypeSet::of(ScalarType::BFloat16);
constexpr DtypeSet kIntegralDtypes = DtypeSet::of(ScalarType::Byte) |
                                     DtypeSet::of(ScalarType::Char) |
                                     DtypeSet::of(ScalarType::Short) |
                                     DtypeSet::of(ScalarType::Int) | DtypeSet::of(ScalarType::Long);
// torch's "all types": the ones arithmetic kernels cover.
constexpr DtypeSet kRealDtypes = kIntegralDtypes | kFloatingDtypes;
constexpr DtypeSet kRealAndBoolDtypes = kRealDtypes | DtypeSet::of(ScalarType::Bool);

}  // namespace rt
