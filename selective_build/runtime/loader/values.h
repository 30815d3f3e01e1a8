#pragma once

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/loader/flatbuffer.h"
#include "runtime/loader/memory_plan.h"
#include "runtime/loader/program.h"

namespace rt {

// Builds the value table of an execution plan. Each tensor gets its memory
// by the schema's rule:
//   data_buffer_idx > 0, no allocation_info  -> constant data in the file
//   allocation_info                          -> planned memory (with
//                                               data_buffer_idx > 0, an initial
//                                               state: not supported)
//   neither                                  -> an input the caller supplies:
//                                               a buffer of its size is made
//                                               here, set_input copies into it
// List entries are checked to be valid indices; the kinds of the values they
// name are checked where they are used. Failures go to the reader.
Span<EValue> load_values(fb::Reader& reader, const Program& program, fb::Table plan,
                         const PlannedMemory& memory, Arena& arena);

}  // namespace rt
