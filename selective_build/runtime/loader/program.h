#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/span.h"
#include "runtime/loader/flatbuffer.h"

namespace rt {

// A .pte file held in memory, with its header checked. Everything handed
// out points into the file, which must outlive the Program and its Methods.
// Reads go through a caller's fb::Reader over flatbuffer(), which collects
// the first failure (Note [Reader keeps the first failure]).
class Program {
 public:
  Program() = default;

  // Checks the identifier (ET12 at bytes 4..7) and the optional extended
  // header (eh00 at byte 8) against the file size.
  static Status load(Span<const uint8_t> file, Program* program);

  Span<const uint8_t> flatbuffer() const { return flatbuffer_; }

  // The execution plan called `name`; absent if there is none.
  fb::Table plan(fb::Reader& reader, const char* name) const;

  // `nbytes` of constant data for a tensor's data_buffer_idx: from the
  // constant segment when the program has one, else from the legacy inline
  // constant_buffer list. nullptr after recording a failure.
  const uint8_t* constant_data(fb::Reader& reader, uint32_t buffer_index, size_t nbytes) const;

  // True if `data` points into the file: a constant tensor's bytes.
  bool holds(const void* data) const {
    const uint8_t* byte = static_cast<const uint8_t*>(data);
    const auto within = [byte](Span<const uint8_t> span) {
      return span.size() > 0 && byte >= span.data() && byte < span.data() + span.size();
    };
    return within(flatbuffer_) || within(segment_data_);
  }

 private:
  Span<const uint8_t> flatbuffer_{};    // the file up to the end of the program data
  Span<const uint8_t> segment_data_{};  // from segment_base_offset to the end of the file
};

}  // namespace rt
