#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Complex tensors (_conj_physical, view_as_real_copy) are handled as pairs
// of real parts, bytes only: a ComplexHalf, ComplexFloat or ComplexDouble
// element is its real part, then its imaginary part, each a Half, Float or
// Double. No arithmetic is needed, so nothing is instantiated per dtype.

inline bool is_complex_type(rt::ScalarType dtype) {
  return dtype == rt::ScalarType::ComplexHalf || dtype == rt::ScalarType::ComplexFloat ||
         dtype == rt::ScalarType::ComplexDouble;
}

// The dtype of each part of a complex dtype.
inline rt::ScalarType complex_part_type(rt::ScalarType dtype) {
  switch (dtype) {
    case rt::ScalarType::ComplexHalf:
      return rt::ScalarType::Half;
    case rt::ScalarType::ComplexFloat:
      return rt::ScalarType::Float;
    default:
      return rt::ScalarType::Double;
  }
}

// Negates the IEEE floating point number of `size` bytes (2, 4 or 8) at
// `part` by flipping its sign bit, read through the integer of its width so
// that the byte order is the platform's for both.
inline void negate_part(uint8_t* part, size_t size) {
  if (size == 2) {
    uint16_t bits;
    memcpy(&bits, part, 2);
    bits ^= 0x8000u;
    memcpy(part, &bits, 2);
  } else if (size == 4) {
    uint32_t bits;
    memcpy(&bits, part, 4);
    bits ^= 0x80000000u;
    memcpy(part, &bits, 4);
  } else {
    uint64_t bits;
    memcpy(&bits, part, 8);
    bits ^= uint64_t{1} << 63;
    memcpy(part, &bits, 8);
  }
}

// Copies every complex element of `self` (any strides) to `out`, whose
// element k of `self`'s shape starts at out_strides (in parts) and whose
// imaginary part is `imag_stride` parts after its real part; the imaginary
// part negated when `conjugate`.
__attribute__((noinline)) inline void copy_complex(const rt::Tensor& self, uint8_t* out,
                                                   const int64_t* out_strides, int64_t imag_stride,
                                                   bool conjugate) {
  const size_t part = self.element_size() / 2;
  StridedWalk<2> walk;
  walk.init(self.sizes().data(), self.dim());
  walk.set_operand(0, self);
  walk.set_operand_strides(1, out_strides);
  const int64_t n = walk.row_size();
  do {
    const uint8_t* from = static_cast<const uint8_t*>(self.data()) + walk.offset(0) * 2 * part;
    uint8_t* to = out + walk.offset(1) * part;
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* source = from + i * walk.row_stride(0) * 2 * part;
      uint8_t* target = to + i * walk.row_stride(1) * part;
      memcpy(target, source, part);
      memcpy(target + imag_stride * part, source + part, part);
      if (conjugate) negate_part(target + imag_stride * part, part);
    }
  } while (walk.next_row());
}

}  // namespace portable
