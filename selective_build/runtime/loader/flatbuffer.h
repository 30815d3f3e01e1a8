#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/core/error.h"
#include "runtime/core/span.h"

namespace rt {
namespace fb {

// A bounds-checked reader for the part of the flatbuffer format the .pte
// schema uses. Nothing trusts the bytes: every offset is checked against the
// buffer before it is followed, so a truncated or hostile file yields an
// error, never an out-of-bounds read.
//
// Note [Reader keeps the first failure]
// Loading follows hundreds of offsets. Instead of a Result per step, a
// malformed reference records a failure in the Reader, and the read yields
// an absent table or an empty vector, which callers handle as they must
// handle absent optional fields anyway. A loader checks reader.status() once
// per step, before it relies on what it read. Checks of meaning (an index out
// of range) report through Reader::fail as well, so a load has one status.
// The message of a malformed reference is the one last given to reading():
// loaders name the object they are about to read ("tensor is malformed").
// Tables and vectors are plain positions, and all reads go through the
// Reader, so they travel in registers.

// A table (pos 0: absent) and its vtable.
struct Table {
  uint32_t pos;
  uint32_t vtable;
  bool present() const { return pos != 0; }
};

// A vector: the position of its first element and its length; empty when
// absent or malformed.
struct Vector {
  uint32_t pos;
  uint32_t size;
};

class Reader {
 public:
  // Positions are 32-bit, as in the flatbuffer format itself (at most 2 GB):
  // a larger buffer is only read in its first 4 GB.
  explicit Reader(Span<const uint8_t> buffer)
      : buffer_(buffer.data(), buffer.size() <= UINT32_MAX ? buffer.size() : UINT32_MAX) {}
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  bool ok() const { return status_.ok(); }
  Status status() const { return status_; }
  // Records a failure unless one is recorded already.
  void fail(Status status) {
    if (ok()) status_ = status;
  }
  void fail(Error code, const char* what) { fail(Status(code, what)); }
  void invalid(const char* what) { fail(Error::InvalidProgram, what); }
  // Names what the next reads belong to, for the message if one is malformed.
  void reading(const char* what) { what_ = what; }

  // The root table (its offset is the first word of the buffer).
  Table root() { return table_at(fits(0, 4) ? read<uint32_t>(0) : 0); }

  // The scalar field in `slot`; 0 when absent (every default the schema
  // fields we read have).
  template <typename T>
  T get(Table table, int slot) const {
    const uint64_t bits = scalar(table, slot, sizeof(T));
    T value;
    memcpy(&value, &bits, sizeof(T));  // little-endian: the low bytes
    return value;
  }
  // The sub-table or vector (`stride`-byte elements; a string is a vector
  // of chars) in `slot`: absent or empty when missing, and after a failure.
  Table table(Table table, int slot);
  Vector vector(Table table, int slot, uint32_t stride);

  // Element `index` of a vector of tables (absent if out of range).
  Table table(Vector vector, uint32_t index);
  // Element `index` (< vector.size) of a vector of scalars.
  template <typename T>
  T at(Vector vector, uint32_t index) const {
    return read<T>(vector.pos + static_cast<size_t>(index) * sizeof(T));
  }
  const uint8_t* bytes(Vector vector) const { return buffer_.data() + vector.pos; }

 private:
  bool fits(size_t pos, size_t bytes) const {
    return pos <= buffer_.size() && bytes <= buffer_.size() - pos;
  }
  template <typename T>
  T read(size_t pos) const {  // pos was checked with fits()
    T value;
    memcpy(&value, buffer_.data() + pos, sizeof(T));
    return value;
  }
  Table table_at(size_t pos);
  const uint8_t* field(Table table, int slot, size_t width) const;
  uint64_t scalar(Table table, int slot, size_t width) const;
  // Position of the object the uoffset in field `slot` refers to, or 0.
  size_t follow(Table table, int slot);

  Span<const uint8_t> buffer_;
  Status status_;
  const char* what_ = "program is malformed";
};

}  // namespace fb
}  // namespace rt
