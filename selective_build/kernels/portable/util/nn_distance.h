#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"

namespace portable {

// Note [p-norm distances]
// _cdist_forward and _pdist_forward reduce |a_k - b_k| over a row pair with
// torch's p-norm: p = 0 counts the nonzero differences, p = inf takes the
// largest, 1 and 2 are the sum and the Euclidean norm, any other p is
// (sum |d|^p)^(1/p). The special cases are picked once per call, not per
// element; arithmetic is in opmath_t<T> (float for 16-bit floats).

enum class NormKind { Zero, One, Two, Infinity, General };

inline NormKind norm_kind(double p) {
  if (p == 0) return NormKind::Zero;
  if (p == 1) return NormKind::One;
  if (p == 2) return NormKind::Two;
  if (std::isinf(p)) return NormKind::Infinity;
  return NormKind::General;
}

// The p-norm of a - b over `m` elements (strides in elements).
template <typename T>
opmath_t<T> row_distance(const T* a, int64_t sa, const T* b, int64_t sb, int64_t m, NormKind kind,
                         double p) {
  using M = opmath_t<T>;
  const M mp = static_cast<M>(p);
  M acc = M(0);
  for (int64_t k = 0; k < m; ++k) {
    const M d = std::fabs(static_cast<M>(a[k * sa]) - static_cast<M>(b[k * sb]));
    switch (kind) {
      case NormKind::Zero:
        acc += d != M(0) ? M(1) : M(0);
        break;
      case NormKind::One:
        acc += d;
        break;
      case NormKind::Two:
        acc += d * d;
        break;
      case NormKind::Infinity:
        // NaN propagates, as torch's max.
        acc = d > acc || std::isnan(d) ? d : acc;
        break;
      case NormKind::General:
        acc += std::pow(d, mp);
        break;
    }
  }
  if (kind == NormKind::Two) return std::sqrt(acc);
  if (kind == NormKind::General) return std::pow(acc, M(1) / mp);
  return acc;
}

}  // namespace portable
