#pragma once

#include <cmath>
#include <type_traits>

#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/scalar_type.h"
#include "runtime/kernel/scalar.h"

// The element functions of the binary operators more than one library computes (binary_op.h's
// interface): the portable kernels run them on any dtype, the optimized ones in their vector
// loops (at float precision) and on their strided path, so both give the same bits
// (Note [Shared kernel checks], shape_copy.h).
namespace portable {
namespace {  // the functors' instantiations stay in their kernel (Note [Shared kernel checks])

// self + alpha * other.
struct Add {
  static constexpr bool kHasScalar = true;
  static constexpr bool kOpmathScalar = true;
  template <typename M>
  static M apply(M x, M y, M alpha) {
    return op_add(x, op_mul(alpha, y));
  }
  // torch's rules for alpha, judged on the compute dtype.
  static const char* check(ScalarType common, rt::Scalar alpha) {
    if (alpha.is_bool() && common != ScalarType::Bool) return "a bool alpha needs bool tensors";
    if (alpha.is_floating() && !rt::is_floating_type(common))
      return "alpha must be an integer for integer tensors";
    return nullptr;
  }
};

// self - alpha * other.
struct Sub {
  static constexpr bool kHasScalar = true;
  static constexpr bool kOpmathScalar = true;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  template <typename M>
  static M apply(M x, M y, M alpha) {
    return op_sub(x, op_mul(alpha, y));
  }
  // torch has no bool subtraction (it points to logical_xor and logical_not).
  static const char* validate(const BinaryCall& call) {
    const bool bool_other =
        call.b_is_scalar ? call.other->is_bool() : call.b->dtype() == ScalarType::Bool;
    return call.a->dtype() == ScalarType::Bool || bool_other
               ? "subtraction with bool operands is not supported"
               : nullptr;
  }
  static const char* check(ScalarType common, rt::Scalar alpha) {
    if (alpha.is_bool()) return "a bool alpha needs bool tensors";
    if (alpha.is_floating() && !rt::is_floating_type(common))
      return "alpha must be an integer for integer tensors";
    return nullptr;
  }
};

struct Mul {
  static constexpr bool kHasScalar = false;
  static constexpr bool kOpmathScalar = true;
  template <typename M>
  static M apply(M x, M y, M) {
    return op_mul(x, y);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

// True division: integers and bool divide in Float (1 / 0 is inf; x * (1 / y) would round
// differently).
struct Div {
  static constexpr bool kHasScalar = false;
  static constexpr BinaryKind kKind = BinaryKind::kTrueDivision;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kFloatingDtypes;
  static constexpr bool kOpmathScalar = true;
  template <typename M>
  static M apply(M x, M y, M) {
    return x / y;
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

// self == other in the promoted dtype (a scalar is converted to it first); bool results,
// stored into out of any dtype.
struct Equal {
  static constexpr bool kHasScalar = false;
  static constexpr BinaryKind kKind = BinaryKind::kComparison;
  template <typename M>
  static bool apply(M x, M y, M) {
    return x == y;
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

// pow with a scalar exponent (held in the compute dtype, as torch converts it): torch
// computes the common exponents of float, double and bfloat16 bases by multiplication,
// sqrt and division instead of std::pow (which differs at -0 and -inf).
struct PowScalar {
  static constexpr bool kHasScalar = false;
  static constexpr bool kStoredType = true;
  template <typename T, typename M>
  static M apply(M x, M y, M) {
    if constexpr (std::is_floating_point<M>::value && !std::is_same<T, rt::Half>::value) {
      if (y == M(0.5)) return std::sqrt(x);
      if (y == M(-0.5)) return M(1) / std::sqrt(x);
      if (y == M(-1)) return M(1) / x;
      if (y == M(2)) return x * x;
      if (y == M(3)) return x * x * x;
      if (y == M(-2)) return M(1) / (x * x);
    }
    return op_pow(x, y);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace
}  // namespace portable
