#include "runtime/runner/npy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/core/no_plt.h"

namespace rt {
namespace {

// npy dtype strings ("<f4"), 3 characters each and no NUL between them, by
// ScalarType number; NULs where npy has none (ComplexHalf) or where its name
// is longer ("<c16": ComplexDouble). alignas(1) on this file's
// tables: GCC otherwise aligns an array of 32 bytes or more to 32, padding the
// smallest runner's read-only segment.
alignas(1) constexpr char kDescr[] = "|u1|i1<i2<i4<i8<f2<f4<f8\0\0\0<c8\0\0\0|b1";
constexpr int kNumDescr = (sizeof kDescr - 1) / 3;
static_assert(kNumDescr == static_cast<int>(ScalarType::Bool) + 1,
              "one descr per ScalarType up to Bool");

// The ScalarType number of the 3-character npy descr at `descr`, or -1.
int find_descr(const char* descr) {
  int type = kNumDescr;
  while (--type >= 0 && (kDescr[3 * type] == '\0' || memcmp(kDescr + 3 * type, descr, 3) != 0)) {
  }
  return type;
}

// The header is the repr() of a dict with sorted keys, as numpy writes it:
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// Reading and writing share its fixed text.
alignas(1) constexpr char kDescrKey[] = "{'descr': '";
alignas(1) constexpr char kOrder[] = "', 'fortran_order': False, 'shape': (";

}  // namespace

Status parse_npy(uint8_t* file, size_t size, Tensor* tensor) {
  // Magic, version, then the header length: 2 bytes in version 1, 4 after.
  const size_t start = size >= 12 && file[6] > 1 ? 12 : 10;
  uint32_t length = 0;
  if (size >= 12) memcpy(&length, file + 8, start - 8);
  if (size < 12 || memcmp(file, "\x93NUMPY", 6) != 0 || file[6] < 1 || file[6] > 3 || length == 0 ||
      length > size - start || file[start + length - 1] != '\n') {
    return Status(Error::InvalidInput, "not an npy file, or truncated");
  }
  // Every dtype read here has a 3-character descr. A NUL in place of the
  // header's final newline bounds the parsing of the shape.
  char* header = reinterpret_cast<char*>(file + start);
  header[length - 1] = '\0';
  constexpr size_t kShapeAt = 14 + sizeof kOrder - 1;
  static_assert(sizeof kDescrKey - 1 + 3 == 14, "a 3-character descr, then kOrder");
  const int type = length > kShapeAt && memcmp(header, kDescrKey, sizeof kDescrKey - 1) == 0 &&
                           memcmp(header + 14, kOrder, sizeof kOrder - 1) == 0
                       ? find_descr(header + 11)
                       : -1;
  if (type < 0) return Status(Error::InvalidInput, "unsupported npy dtype or Fortran order");
  int32_t sizes[Tensor::kMaxDims];
  // 0, 1, 2, ...: filled as the dims are read (a constant table costs the smallest runner's
  // read-only data bytes it does not have; docs/runner.md).
  uint8_t row_major[Tensor::kMaxDims];
  int dim = 0;
  for (char* at = header + kShapeAt; *at != ')'; ++dim) {
    char* end;
    const long extent = strtol(at, &end, 10);
    if (end == at || dim == Tensor::kMaxDims || extent < 0 || extent > INT32_MAX) {
      return Status(Error::InvalidInput, "npy shape is malformed or has more than 8 dims");
    }
    sizes[dim] = static_cast<int32_t>(extent);
    row_major[dim] = static_cast<uint8_t>(dim);
    at = end + (*end == ',');
    while (*at == ' ') ++at;
  }
  uint8_t* data = file + start + length;
  if (!tensor->init(static_cast<ScalarType>(type), sizes, row_major, dim, ShapeDynamism::Static)
           .ok() ||
      tensor->nbytes() > size - start - length) {
    return Status(Error::InvalidInput, "npy data is truncated");
  }
  // A bool is the byte 0 or 1: a kernel reading any other as a bool is undefined behaviour.
  uint8_t bits = 0;
  for (size_t i = 0; type == static_cast<int>(ScalarType::Bool) && i < size - start - length; ++i)
    bits |= data[i];
  if (bits > 1) return Status(Error::InvalidInput, "npy bool data holds a byte other than 0 or 1");
  tensor->set_data(data);
  return Status();
}

int format_shape(char* buffer, const Tensor& tensor) {
  int length = 0;
  buffer[length++] = '(';
  for (int d = 0; d < tensor.dim(); ++d) {
    length +=
        snprintf(buffer + length, 16, d == 0 ? "%d" : ", %d", static_cast<int>(tensor.size(d)));
  }
  if (tensor.dim() == 1) buffer[length++] = ',';
  buffer[length++] = ')';
  buffer[length] = '\0';
  return length;
}

Status write_npy(const char* path, const Tensor& tensor) {
  const int type = static_cast<int>(tensor.dtype());
  if (type >= kNumDescr || kDescr[3 * type] == '\0') {
    return Status(Error::NotSupported, "output dtype has no npy equivalent");
  }
  char shape[100];
  format_shape(shape, tensor);
  // Magic and version 1.0; the header length goes into bytes 8..9 (snprintf writes from
  // byte 10 on).
  char header[256];
  memcpy(header, "\x93NUMPY\x01\x00", 8);
  header[9] = 0;
  // kOrder ends in the shape's "(".
  int length = 10 + snprintf(header + 10, sizeof header - 10, "%s%.3s%s%s, }", kDescrKey,
                             kDescr + 3 * type, kOrder, shape + 1);
  // Spaces up to a 64-byte boundary, ending in '\n'.
  while (length % 64 != 63) header[length++] = ' ';
  header[length++] = '\n';
  header[8] = static_cast<char>(length - 10);

  // Note [Outputs appear whole]: written under a temporary name beside the output (its
  // name and "~"), then renamed over it, so a runner stopped while writing (killed, or
  // out of disk space) never leaves a partial output<i>.npy.
  char temporary[kMaxPath + 1];
  snprintf(temporary, sizeof temporary, "%s~", path);
  FILE* file = fopen(temporary, "wb");
  bool ok = file != nullptr &&
            fwrite(header, 1, static_cast<size_t>(length), file) == static_cast<size_t>(length);
  // Row-major order whatever the dim order, element by element (stdio buffers the writes).
  const size_t element = tensor.element_size();
  for (int64_t i = 0; ok && i < tensor.numel(); ++i) {
    ok = fwrite(static_cast<const uint8_t*>(tensor.data()) + tensor.offset_of(i) * element, element,
                1, file) == 1;
  }
  ok = file != nullptr && fclose(file) == 0 && ok && rename(temporary, path) == 0;
  return ok ? Status() : Status(Error::Io, "cannot write the file");
}

}  // namespace rt
