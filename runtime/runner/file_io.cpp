#include "runtime/runner/file_io.h"

#include <cstdio>
#include <cstdlib>

namespace rt {

Status read_file(const char* path, FileData* data) {
  FILE* file = fopen(path, "rb");
  if (file == nullptr) return Status(Error::InvalidInput, "cannot open the file");
  const long size = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
  if (size >= 0 && fseek(file, 0, SEEK_SET) == 0) {
    data->bytes = static_cast<uint8_t*>(calloc(static_cast<size_t>(size) + 1, 1));  // never 0 bytes
    data->size = static_cast<size_t>(size);
  }
  const bool ok = data->bytes != nullptr && fread(data->bytes, 1, data->size, file) == data->size;
  fclose(file);
  return ok ? Status() : Status(Error::InvalidInput, "cannot read the file");
}

}  // namespace rt
