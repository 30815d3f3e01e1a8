#pragma once

#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/scalar.h"

namespace portable {

using rt::ScalarType;

// torch.promote_types over the dtypes arithmetic kernels support.
inline ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b || b == ScalarType::Bool) return a;
  if (a == ScalarType::Bool) return b;
  const bool a_floating = rt::is_floating_type(a);
  if (a_floating != rt::is_floating_type(b)) return a_floating ? a : b;
  if (a_floating) {
    // Half and BFloat16 have no common 16-bit type.
    if (rt::element_size(a) == 2 && rt::element_size(b) == 2) return ScalarType::Float;
  } else if (a == ScalarType::Byte || b == ScalarType::Byte) {
    const ScalarType other = a == ScalarType::Byte ? b : a;
    return other == ScalarType::Char ? ScalarType::Short : other;  // uint8 and int8 meet in int16
  }
  return rt::element_size(a) >= rt::element_size(b) ? a : b;
}

// torch.result_type of two tensors: a 0-dim tensor meeting a dimensioned one
// only decides the dtype when it is of a higher category (bool < integer <
// floating point).
inline ScalarType result_type(const rt::Tensor& a, const rt::Tensor& b) {
  if ((a.dim() == 0) == (b.dim() == 0)) return promote_types(a.dtype(), b.dtype());
  const ScalarType dimensioned = a.dim() != 0 ? a.dtype() : b.dtype();
  const ScalarType zero_dim = a.dim() != 0 ? b.dtype() : a.dtype();
  if (rt::is_floating_type(dimensioned)) return dimensioned;
  if (dimensioned == ScalarType::Bool || rt::is_floating_type(zero_dim)) {
    return promote_types(dimensioned, zero_dim);
  }
  return dimensioned;
}

// torch.result_type of a tensor of dtype `self` and a Python scalar: a
// scalar only decides the dtype when it is of a higher category, and then
// brings the default dtype of its category (Float, Long), not Double.
inline ScalarType scalar_result_type(ScalarType self, const rt::Scalar& other) {
  if (other.is_floating()) return rt::is_floating_type(self) ? self : ScalarType::Float;
  if (other.is_bool() || self != ScalarType::Bool) return self;
  return ScalarType::Long;
}

// torch.can_cast: no floating point into integers, nothing but bool into bool.
inline bool can_cast(ScalarType from, ScalarType to) {
  if (from == to) return true;
  if (rt::is_floating_type(from) && rt::is_integral_type(to, true)) return false;
  return from == ScalarType::Bool || to != ScalarType::Bool;
}

}  // namespace portable
