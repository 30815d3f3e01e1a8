#include "runtime/loader/memory_plan.h"

#include "runtime/loader/schema.h"

namespace rt {

void PlannedMemory::allocate(fb::Reader& reader, fb::Table plan, Arena& arena) {
  reader.reading("planned buffer sizes are malformed");
  const fb::Vector sizes = reader.vector(plan, schema::execution_plan::kNonConstBufferSizes, 8);
  const uint32_t count = sizes.size > 0 ? sizes.size - 1 : 0;
  buffers_ = arena.allocate_array<Buffer>(count);
  for (uint32_t i = 0; i < count; ++i) {
    const int64_t size = reader.at<int64_t>(sizes, i + 1);
    uint8_t* data = buffers_ != nullptr && size >= 0
                        ? static_cast<uint8_t*>(arena.allocate(static_cast<size_t>(size)))
                        : nullptr;
    if (data == nullptr) {
      return reader.fail(
          size < 0 ? Status(Error::InvalidProgram, "planned buffer size is negative")
                   : Status(Error::OutOfMemory, "out of memory while loading the method"));
    }
    buffers_[i] = Buffer{data, static_cast<uint64_t>(size)};
  }
  count_ = count;
}

uint8_t* PlannedMemory::locate(fb::Reader& reader, fb::Table allocation, size_t nbytes) const {
  namespace ad = schema::allocation_details;
  const uint32_t memory_id = reader.get<uint32_t>(allocation, ad::kMemoryId);
  const uint64_t offset =
      static_cast<uint64_t>(reader.get<uint32_t>(allocation, ad::kMemoryOffsetHigh)) << 32 |
      reader.get<uint32_t>(allocation, ad::kMemoryOffsetLow);
  if (memory_id - 1 < count_) {  // memory_id 0 wraps around and fails too
    const Buffer& buffer = buffers_[memory_id - 1];
    if (offset <= buffer.size && nbytes <= buffer.size - offset) return buffer.data + offset;
  }
  reader.invalid("tensor lies outside the planned buffers");
  return nullptr;
}

}  // namespace rt
