#pragma once

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/loader/flatbuffer.h"

namespace rt {

// Resolves a vector of value indices (int64 if `wide`, else int32) to
// pointers into `values`, each index checked; with `allow_none`, -1 becomes
// null (None). Used for boxed lists, KernelCall arguments, and a plan's
// inputs and outputs. Failures go to the reader.
BoxedList resolve_values(fb::Reader& reader, fb::Vector indices, bool wide, bool allow_none,
                         Span<EValue> values, Arena& arena);

}  // namespace rt
