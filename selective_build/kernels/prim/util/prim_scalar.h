#pragma once

#include <cmath>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace prim {

// The symbolic-integer and scalar arithmetic an exported program keeps
// (executorch_prim::*.Scalar): operands are Int, Double or Bool values (a
// Bool counts as an int), the result is written into the call's last value.
// Ints combine as Python ints in int64 (wrapping on overflow); with a Double
// operand the result is a Double, as in Python.
enum class PrimBinary : uint8_t {
  Add,
  Sub,
  Mul,
  FloorDiv,
  TrueDiv,
  Mod,
  Eq,
  Gt,
  Lt,
  Ge,
  Le,
  Max,
  Min
};
enum class PrimUnary : uint8_t { Neg, Float, Int, Ceil, Round, Trunc };

struct PrimNumber {
  bool is_double;
  int64_t i;
  double d;
  double as_double() const { return is_double ? d : static_cast<double>(i); }
};

// A Scalar operand (Int, Double or Bool; a Bool counts as an int).
inline PrimNumber prim_number(const rt::Scalar& value) {
  return value.is_floating() ? PrimNumber{true, 0, value.to<double>()}
                             : PrimNumber{false, value.to<int64_t>(), 0.0};
}

// A SymInt operand.
inline PrimNumber prim_int(int64_t value) { return PrimNumber{false, value, 0.0}; }

namespace detail {

inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// Python's // and % on ints (floor division; the remainder takes b's sign).
inline int64_t floor_div(int64_t a, int64_t b) {
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));  // INT64_MIN // -1 wraps
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
inline double floor_mod(double a, double b) {
  const double r = std::fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

}  // namespace detail

// The result of `a kind b` (a None value after failing).
__attribute__((noinline)) inline rt::EValue prim_binary(rt::KernelContext& context, PrimNumber a,
                                                        PrimNumber b, const char* op,
                                                        PrimBinary kind) {
  const rt::OpContext in(context, op);
  rt::EValue result = rt::EValue();
  const bool ints = !a.is_double && !b.is_double;
  const double x = a.as_double(), y = b.as_double();
  switch (kind) {
    case PrimBinary::Add:
      result =
          ints ? rt::EValue::from_int(detail::wrap_add(a.i, b.i)) : rt::EValue::from_double(x + y);
      return result;
    case PrimBinary::Sub:
      result = ints ? rt::EValue::from_int(detail::wrap_add(
                          a.i, static_cast<int64_t>(0 - static_cast<uint64_t>(b.i))))
                    : rt::EValue::from_double(x - y);
      return result;
    case PrimBinary::Mul:
      result = ints ? rt::EValue::from_int(static_cast<int64_t>(static_cast<uint64_t>(a.i) *
                                                                static_cast<uint64_t>(b.i)))
                    : rt::EValue::from_double(x * y);
      return result;
    case PrimBinary::FloorDiv:
    case PrimBinary::Mod:
      if (ints ? b.i == 0 : y == 0) {
        in.fail("division by zero");
        return result;
      }
      if (kind == PrimBinary::FloorDiv) {
        result = ints ? rt::EValue::from_int(detail::floor_div(a.i, b.i))
                      : rt::EValue::from_double(std::floor(x / y));
      } else {
        result = ints ? rt::EValue::from_int(detail::floor_mod(a.i, b.i))
                      : rt::EValue::from_double(detail::floor_mod(x, y));
      }
      return result;
    case PrimBinary::TrueDiv:
      if (y == 0) {
        in.fail("division by zero");
        return result;
      }
      result = rt::EValue::from_double(x / y);
      return result;
    case PrimBinary::Max:
    case PrimBinary::Min: {
      const bool first = kind == PrimBinary::Max ? (ints ? a.i >= b.i : x >= y || std::isnan(x))
                                                 : (ints ? a.i <= b.i : x <= y || std::isnan(x));
      if (ints) {
        result = rt::EValue::from_int(first ? a.i : b.i);
      } else {
        result = rt::EValue::from_double(first ? x : y);
      }
      return result;
    }
    default:
      break;
  }
  // Comparisons: exact on ints, as doubles otherwise.
  const int order = ints ? (a.i < b.i ? -1 : a.i > b.i) : (x < y ? -1 : x > y ? 1 : x == y ? 0 : 2);
  bool truth = false;
  switch (kind) {
    case PrimBinary::Eq:
      truth = order == 0;
      break;
    case PrimBinary::Gt:
      truth = order == 1;
      break;
    case PrimBinary::Lt:
      truth = order == -1;
      break;
    case PrimBinary::Ge:
      truth = order == 1 || order == 0;
      break;
    default:  // Le
      truth = order == -1 || order == 0;
      break;
  }
  result = rt::EValue::from_bool(truth);
  return result;
}

// The result of `kind a` (a None value after failing).
__attribute__((noinline)) inline rt::EValue prim_unary(rt::KernelContext& context, PrimNumber a,
                                                       const char* op, PrimUnary kind) {
  const rt::OpContext in(context, op);
  rt::EValue result = rt::EValue();
  if (kind == PrimUnary::Neg) {
    result = a.is_double
                 ? rt::EValue::from_double(-a.d)
                 : rt::EValue::from_int(static_cast<int64_t>(0 - static_cast<uint64_t>(a.i)));
    return result;
  }
  if (kind == PrimUnary::Float) {
    result = rt::EValue::from_double(a.as_double());
    return result;
  }
  if (!a.is_double) {
    result = rt::EValue::from_int(a.i);
    return result;
  }
  if (!std::isfinite(a.d)) {
    in.fail("cannot convert a NaN or infinite value to an int");
    return result;
  }
  // Python's round() rounds halves to even, as nearbyint does by default.
  const double rounded = kind == PrimUnary::Ceil    ? std::ceil(a.d)
                         : kind == PrimUnary::Round ? std::nearbyint(a.d)
                                                    : std::trunc(a.d);
  if (!(rounded >= -9.2233720368547758e18 && rounded < 9.2233720368547758e18)) {
    in.fail("value is out of int range");
    return result;
  }
  result = rt::EValue::from_int(static_cast<int64_t>(rounded));
  return result;
}

}  // namespace prim
