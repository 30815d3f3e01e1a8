#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/span.h"
#include "runtime/loader/flatbuffer.h"

namespace rt {

// The memory-planned buffers of one execution plan: entry i+1 of
// non_const_buffer_sizes is buffer i (entry 0 is reserved), and an
// AllocationDetails names its buffer by that 1-based memory_id.
// Failures go to the reader (Note [Reader keeps the first failure]).
class PlannedMemory {
 public:
  PlannedMemory() = default;

  void allocate(fb::Reader& reader, fb::Table plan, Arena& arena);

  // The `nbytes` an AllocationDetails table names, checked to lie inside
  // its buffer (offset = memory_offset_high << 32 | memory_offset_low).
  uint8_t* locate(fb::Reader& reader, fb::Table allocation, size_t nbytes) const;

 private:
  struct Buffer {
    uint8_t* data;
    uint64_t size;
  };
  Buffer* buffers_ = nullptr;
  uint32_t count_ = 0;
};

}  // namespace rt
