#include "runtime/loader/flatbuffer.h"

namespace rt {
namespace fb {

Table Reader::table_at(size_t pos) {
  // A table starts with a signed offset to its vtable; the vtable holds its
  // own size, the table's size, then one uint16 field offset per slot.
  if (pos >= 4 && fits(pos, 4)) {
    const int64_t vtable = static_cast<int64_t>(pos) - read<int32_t>(pos);
    if (vtable >= 0 && fits(static_cast<size_t>(vtable), 4)) {
      const uint16_t vtable_size = read<uint16_t>(static_cast<size_t>(vtable));
      const uint16_t object_size = read<uint16_t>(static_cast<size_t>(vtable) + 2);
      if (vtable_size >= 4 && fits(static_cast<size_t>(vtable), vtable_size) && object_size >= 4 &&
          fits(pos, object_size)) {
        return Table{static_cast<uint32_t>(pos), static_cast<uint32_t>(vtable)};
      }
    }
  }
  invalid(what_);
  return Table{};
}

const uint8_t* Reader::field(Table table, int slot, size_t width) const {
  const size_t entry = 4 + 2 * static_cast<size_t>(slot);
  if (!table.present() || entry + 2 > read<uint16_t>(table.vtable)) return nullptr;
  const uint16_t offset = read<uint16_t>(table.vtable + entry);
  // Offsets below 4 would overlap the vtable offset: treat them as absent.
  if (offset < 4 || offset + width > read<uint16_t>(table.vtable + 2)) return nullptr;
  return buffer_.data() + table.pos + offset;
}

uint64_t Reader::scalar(Table table, int slot, size_t width) const {
  uint64_t bits = 0;
  const uint8_t* at = field(table, slot, width);
  if (at != nullptr) memcpy(&bits, at, width);
  return bits;
}

size_t Reader::follow(Table table, int slot) {
  const uint8_t* at = field(table, slot, 4);
  if (at == nullptr) return 0;
  uint32_t offset;
  memcpy(&offset, at, sizeof offset);
  const size_t target = static_cast<size_t>(at - buffer_.data()) + offset;
  if (fits(target, 4)) return target;
  invalid(what_);
  return 0;
}

Table Reader::table(Table table, int slot) {
  const size_t target = follow(table, slot);
  return target == 0 ? Table{} : table_at(target);
}

Vector Reader::vector(Table table, int slot, uint32_t stride) {
  const size_t target = follow(table, slot);
  if (target == 0) return Vector{};
  const uint32_t count = read<uint32_t>(target);
  if (count > (buffer_.size() - target - 4) / stride) {
    invalid(what_);
    return Vector{};
  }
  return Vector{static_cast<uint32_t>(target + 4), count};
}

Table Reader::table(Vector vector, uint32_t index) {
  if (index >= vector.size) return Table{};
  const size_t element = vector.pos + static_cast<size_t>(index) * 4;
  return table_at(element + read<uint32_t>(element));
}

}  // namespace fb
}  // namespace rt
