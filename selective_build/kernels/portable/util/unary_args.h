#pragma once

#include <cstring>

#include "runtime/core/evalue.h"

namespace portable {

// Whether a `str` argument equals `text`.
inline bool string_is(rt::StringRef value, const char* text) {
  return strlen(text) == value.size && memcmp(value.chars, text, value.size) == 0;
}

}  // namespace portable
