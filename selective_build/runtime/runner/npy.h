#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"

namespace rt {

// Parses an .npy file (format versions 1 to 3, little-endian, C order) held
// in memory; it overwrites the header's final newline. The tensor's data
// points into `file`. Dtypes: |b1 |u1 |i1 <i2 <i4 <i8 <f2 <f4 <f8 (npy has
// no bfloat16).
Status parse_npy(uint8_t* file, size_t size, Tensor* tensor);

// Writes "(2, 3)", "(4,)" or "()" (a Python tuple, as npy headers spell
// shapes) into `buffer`, which must hold 100 bytes. Returns the length.
int format_shape(char* buffer, const Tensor& tensor);

// The longest path write_npy takes, its final NUL included.
constexpr size_t kMaxPath = 4096;

// Writes `tensor` as a version 1.0 .npy file, in row-major order whatever
// the tensor's dim order: first to `path` and "~", then renamed to `path`
// (Note [Outputs appear whole] in npy.cpp). Fails with Io when the file
// cannot be written.
Status write_npy(const char* path, const Tensor& tensor);

}  // namespace rt
