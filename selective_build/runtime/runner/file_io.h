#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"

namespace rt {

// A whole file's bytes, writable by this process only. Where the platform has
// mmap the file is mapped (private pages: the bytes of a large program are
// read from the page cache as the method touches them, never copied into the
// heap, and a write stays in this process); elsewhere it is read into
// malloc'd memory. Either way `bytes` is aligned for any scalar, as tensor
// data needs, and is never null once open() succeeded (a 0-byte file gives a
// non-null pointer and size 0).
class FileData {
 public:
  FileData() = default;
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;
  ~FileData();

  // Opens the file (once per FileData). Refuses anything that is not a regular file, saying what the path is (a
  // named pipe would block the runner forever, a device could be endless): it
  // is opened without waiting and checked before a byte is read. Fails with
  // InvalidInput when the file cannot be opened or read.
  Status open(const char* path);

  uint8_t* bytes() const { return bytes_; }
  size_t size() const { return size_; }

 private:
  uint8_t* bytes_ = nullptr;
  size_t size_ = 0;
};

}  // namespace rt
