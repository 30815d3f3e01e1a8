#include "runtime/loader/program.h"

#include <cstring>

#include "runtime/core/no_plt.h"

#include "runtime/loader/schema.h"

namespace rt {
namespace {

uint64_t read_u64(const uint8_t* bytes) {
  uint64_t value;
  memcpy(&value, bytes, sizeof value);
  return value;
}

uint32_t read_u32(const uint8_t* bytes) {
  uint32_t value;
  memcpy(&value, bytes, sizeof value);
  return value;
}

// Four ASCII characters as the little-endian word they form in the file.
constexpr uint32_t tag(const char (&text)[5]) {
  return static_cast<uint32_t>(text[0]) | static_cast<uint32_t>(text[1]) << 8 |
         static_cast<uint32_t>(text[2]) << 16 | static_cast<uint32_t>(text[3]) << 24;
}

}  // namespace

Status Program::load(Span<const uint8_t> file, Program* program) {
  const uint8_t* bytes = file.data();
  const size_t size = file.size();
  // The extended header exists only in files with segment data; it gives
  // the end of the flatbuffer and the base the segment offsets count from.
  uint64_t program_size = size;
  uint64_t segment_base = size;
  const char* problem = nullptr;
  if (size < 8 || read_u32(bytes + 4) != tag("ET12")) {
    problem = "not an ExecuTorch program of version ET12";
  } else if (size >= 40 && read_u32(bytes + 8) == tag("eh00")) {
    const uint32_t header_length = read_u32(bytes + 12);
    program_size = read_u64(bytes + 16);
    segment_base = read_u64(bytes + 24);
    if (header_length < 24 || program_size > size || segment_base > size ||
        (header_length >= 32 && read_u64(bytes + 32) > size - segment_base)) {
      problem = "file is truncated (per its extended header)";
    }
  }
  if (problem != nullptr) return Status(Error::InvalidProgram, problem);
  program->flatbuffer_ = Span<const uint8_t>(bytes, static_cast<size_t>(program_size));
  program->segment_data_ =
      Span<const uint8_t>(bytes + segment_base, size - static_cast<size_t>(segment_base));
  return Status();  // the flatbuffer itself is checked as methods read it
}

fb::Table Program::plan(fb::Reader& reader, const char* name) const {
  reader.reading("execution plan list is malformed");
  const fb::Vector plans = reader.vector(reader.root(), schema::program::kExecutionPlan, 4);
  const size_t length = strlen(name);
  for (uint32_t i = 0; i < plans.size; ++i) {
    const fb::Table plan = reader.table(plans, i);
    const fb::Vector plan_name = reader.vector(plan, schema::execution_plan::kName, 1);
    if (plan_name.size == length && memcmp(reader.bytes(plan_name), name, length) == 0) return plan;
  }
  return fb::Table{};
}

const uint8_t* Program::constant_data(fb::Reader& reader, uint32_t buffer_index,
                                      size_t nbytes) const {
  namespace so = schema::subsegment_offsets;
  reader.reading("constant data tables are malformed");
  const fb::Table root = reader.root();
  // A SubsegmentOffsets table: a segment index, and offsets into that segment.
  const fb::Table subsegments = reader.table(root, schema::program::kConstantSegment);
  const fb::Vector offsets = reader.vector(subsegments, so::kOffsets, 8);
  const uint8_t* data = nullptr;
  uint64_t offset =
      buffer_index < offsets.size ? reader.at<uint64_t>(offsets, buffer_index) : UINT64_MAX;
  uint64_t size = 0;
  if (offsets.size > 0) {
    const fb::Table segment = reader.table(reader.vector(root, schema::program::kSegments, 4),
                                           reader.get<uint32_t>(subsegments, so::kSegmentIndex));
    // Offsets count from the segment, segments from segment_base_offset.
    const uint64_t start = reader.get<uint64_t>(segment, schema::data_segment::kOffset);
    size = reader.get<uint64_t>(segment, schema::data_segment::kSize);
    if (segment.present() && start <= segment_data_.size() &&
        size <= segment_data_.size() - start) {
      data = segment_data_.data() + start;
    }
  } else {
    // Files written before segments existed keep constants inline.
    const fb::Table buffer =
        reader.table(reader.vector(root, schema::program::kConstantBuffer, 4), buffer_index);
    const fb::Vector storage = reader.vector(buffer, schema::buffer::kStorage, 1);
    data = storage.pos != 0 ? reader.bytes(storage) : nullptr;
    size = storage.size;
    offset = 0;
  }
  if (data == nullptr || offset > size || nbytes > size - offset) {
    reader.invalid("tensor data lies outside its segment or buffer");
    return nullptr;
  }
  return data + offset;
}

}  // namespace rt
