#pragma once

#include <cstddef>
#include <cstring>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {

// Argument kinds rt::ArgReader has no accessor for. Like its accessors,
// these fail the context naming the op and the argument, and do nothing
// once the call has failed. `args` is the span the ArgReader was made from
// (whose size it checked).

// A `str` argument equal to `text`? False (without failing) for another string.
inline bool unary_string_is(const rt::ArgReader& in, rt::Span<rt::EValue* const> args, size_t index,
                            const char* name, const char* text) {
  if (!in.ok()) return false;
  const rt::EValue* value = args[index];
  if (value == nullptr || value->tag() != rt::Tag::String) {
    in.context().fail_argument(in.op(), name, "a string");
    return false;
  }
  const rt::StringRef chars = value->to_string();
  return strlen(text) == chars.size && memcmp(chars.chars, text, chars.size) == 0;
}

// A `Scalar?` argument: false for None (or once the call failed), else
// true with *scalar set.
inline bool unary_optional_scalar(const rt::ArgReader& in, rt::Span<rt::EValue* const> args, size_t index,
                                  const char* name, rt::Scalar* scalar) {
  if (!in.ok() || (args[index] != nullptr && args[index]->is_none())) return false;
  *scalar = in.scalar(index, name);
  return in.ok();
}

}  // namespace portable
