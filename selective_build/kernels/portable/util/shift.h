#pragma once

#include <cstdint>
#include <type_traits>

// What the two bitwise shifts share: when a shift amount leaves C++'s defined range, where
// torch gives a fixed result instead (op_bitwise_left_shift.cpp, op_bitwise_right_shift.cpp).

namespace portable {

template <typename M>
bool is_negative(M x) {
  if constexpr (std::is_signed<M>::value) {
    return x < M(0);
  } else {
    return false;
  }
}

// Whether shifting by y is negative or at least the width of M.
template <typename M>
bool shift_out_of_range(M y) {
  return is_negative(y) || static_cast<uint64_t>(y) >= sizeof(M) * 8;
}

}  // namespace portable
