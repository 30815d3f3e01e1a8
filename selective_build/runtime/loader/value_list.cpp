#include "runtime/loader/value_list.h"

namespace rt {

BoxedList resolve_values(fb::Reader& reader, fb::Vector indices, bool wide, bool allow_none,
                         Span<EValue> values, Arena& arena) {
  EValue** entries = arena.allocate_array<EValue*>(indices.size);
  if (entries == nullptr) reader.fail(Error::OutOfMemory, "out of memory while loading the method");
  for (uint32_t i = 0; reader.ok() && i < indices.size; ++i) {
    const int64_t index = wide ? reader.at<int64_t>(indices, i) : reader.at<int32_t>(indices, i);
    if (index >= 0 && static_cast<uint64_t>(index) < values.size()) {
      entries[i] = &values[static_cast<size_t>(index)];
    } else if (index != -1 || !allow_none) {  // None stays null
      reader.invalid("value index is out of range");
    }
  }
  return BoxedList{entries, reader.ok() ? indices.size : 0};
}

}  // namespace rt
