#pragma once

#include <cstddef>

namespace rt {

// Room for one failure message that names run-time things (an operator, a
// dtype, a backend), written with snprintf. Its owner keeps it alive as long
// as the Status pointing at it.
struct Message {
  char text[512];  // fits an operator name, its kernel key and the words around them
};

// Copies `size` bytes of text read from a program into `out` (always terminated), bytes
// outside printable ASCII written as \xHH: a hostile file's text cannot break an error
// message over lines or send escape sequences to the user's terminal.
inline void copy_printable(const char* text, size_t size, char* out, size_t capacity) {
  static const char kHex[] = "0123456789abcdef";
  size_t length = 0;
  for (size_t i = 0; i < size; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool printable = c >= 0x20 && c < 0x7f;
    if (length + (printable ? 1 : 4) >= capacity) break;
    if (printable) {
      out[length++] = static_cast<char>(c);
    } else {
      out[length++] = '\\';
      out[length++] = 'x';
      out[length++] = kHex[c >> 4];
      out[length++] = kHex[c & 0xf];
    }
  }
  out[length] = '\0';
}

}  // namespace rt
