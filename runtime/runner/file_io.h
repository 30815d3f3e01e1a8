#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"

namespace rt {

// A whole file in malloc'd memory (aligned for any scalar, as tensor data
// needs); the caller frees `bytes`, which stays null when reading failed.
struct FileData {
  uint8_t* bytes = nullptr;
  size_t size = 0;
};

// Fails with InvalidInput when the file cannot be opened or read.
Status read_file(const char* path, FileData* data);

}  // namespace rt
