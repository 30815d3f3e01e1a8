#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/unary_args.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/kernel_args.h"

// The element functions of the unary operators more than one library computes: the
// portable kernels run them on any dtype, the optimized ones on their strided path (their
// vector loops compute the same expressions), so both give the same bits
// (Note [Shared kernel checks], shape_copy.h).
namespace portable {
namespace {  // the functors' instantiations stay in their kernel (Note [Shared kernel checks])

// -x; integers wrap around (uint8 too), as in torch.
struct Neg : UnaryStateless<Neg> {
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_integral<M>::value) {
      return static_cast<M>(uint64_t(0) - static_cast<uint64_t>(x));
    } else {
      return -x;
    }
  }
};

// 1 / sqrt(x): inf at 0, NaN below.
struct Rsqrt : UnaryStateless<Rsqrt> {
  template <typename M>
  static M apply(M x) {
    return M(1) / std::sqrt(x);
  }
};

// 1 / (1 + e^-x), which tends to 0 and 1 without overflow trouble.
struct Sigmoid : UnaryStateless<Sigmoid> {
  template <typename M>
  static M apply(M x) {
    return M(1) / (M(1) + std::exp(-x));
  }
};

// The hyperbolic tangent.
struct Tanh : UnaryStateless<Tanh> {
  template <typename M>
  static M apply(M x) {
    return std::tanh(x);
  }
};

// self read as bool (nonzero, NaN included, is true), negated; out may have any dtype.
struct LogicalNot : UnaryStateless<LogicalNot> {
  template <typename M>
  static M apply(M x) {
    return !x;
  }
};

// max(x, 0), letting NaN through as torch does (a binary op's interface, for unary_op).
struct Relu {
  static constexpr bool kHasScalar = false;
  template <typename M>
  static M apply(M x, M, M) {
    return x > M(0) || x != x ? x : M(0);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

// x * Phi(x), Phi the standard normal CDF; or with approximate='tanh' the
// tanh approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
struct Gelu {
  static constexpr double kSqrtHalf = 0.7071067811865476;
  static constexpr double kSqrtTwoOverPi = 0.7978845608028654;
  bool tanh;

  template <typename M>
  struct Fn {
    bool tanh;
    M operator()(M x) const {
      if (tanh) {
        const M inner = M(kSqrtTwoOverPi) * (x + M(0.044715) * x * x * x);
        return M(0.5) * x * (M(1) + std::tanh(inner));
      }
      return M(0.5) * x * (M(1) + std::erf(x * M(kSqrtHalf)));
    }
  };
  template <typename M>
  Fn<M> bind() const {
    return Fn<M>{tanh};
  }
};

// gelu's `approximate`: 'none' or 'tanh' (`*tanh` says which); false after failing.
inline bool check_gelu_args(const rt::OpContext& in, rt::StringRef approximate, bool* tanh) {
  *tanh = string_is(approximate, "tanh");
  if (*tanh || string_is(approximate, "none")) return true;
  in.fail("approximate must be 'none' or 'tanh'");
  return false;
}

}  // namespace
}  // namespace portable
