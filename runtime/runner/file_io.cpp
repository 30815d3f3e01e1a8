#include "runtime/runner/file_io.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define RT_HAVE_MMAP 1
#endif

namespace rt {
namespace {

// What a path that is not a regular file is, for the one-line refusal.
const char* not_a_file(mode_t mode) {
  if (S_ISREG(mode)) return nullptr;
  if (S_ISDIR(mode)) return "is a directory, not a file";
  if (S_ISFIFO(mode)) return "is a named pipe, not a file";
  if (S_ISCHR(mode)) return "is a character device, not a file";
  if (S_ISBLK(mode)) return "is a block device, not a file";
  if (S_ISSOCK(mode)) return "is a socket, not a file";
  return "is not a regular file";
}

// Reads `size` bytes from `fd` into `bytes`; false on an error or a short file.
bool read_all(int fd, uint8_t* bytes, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t got = read(fd, bytes + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<size_t>(got);
  }
  return true;
}

alignas(16) uint8_t empty_file[1];  // what a 0-byte file's bytes() points at

}  // namespace

Status FileData::open(const char* path) {
  release();
  // stat before open: opening a FIFO without O_NONBLOCK waits for a writer.
  struct stat info;
  if (stat(path, &info) != 0) {
    return Status(Error::InvalidInput, errno == ENOENT ? "no such file" : "cannot open the file");
  }
  if (const char* what = not_a_file(info.st_mode)) return Status(Error::InvalidInput, what);
  // O_NONBLOCK too: the path may have been replaced by a pipe since the stat.
  const int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Status(Error::InvalidInput, "cannot open the file");
  Status status;
  if (fstat(fd, &info) != 0) {
    status = Status(Error::InvalidInput, "cannot read the file");
  } else if (const char* what = not_a_file(info.st_mode)) {
    status = Status(Error::InvalidInput, what);
  } else if (static_cast<uint64_t>(info.st_size) > SIZE_MAX / 2) {
    status = Status(Error::InvalidInput, "file is too large for this machine's address space");
  } else if (info.st_size == 0) {
    bytes_ = empty_file;
  } else {
    size_ = static_cast<size_t>(info.st_size);
#ifdef RT_HAVE_MMAP
    void* mapped = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (mapped != MAP_FAILED) {
      bytes_ = static_cast<uint8_t*>(mapped);
      mapped_ = true;
    }
#endif
    if (bytes_ == nullptr) {  // no mmap, or a file system that cannot map: read it
      bytes_ = static_cast<uint8_t*>(malloc(size_));
      if (bytes_ == nullptr) {
        status = Status(Error::OutOfMemory, "out of memory while reading the file");
      } else if (!read_all(fd, bytes_, size_)) {
        status = Status(Error::InvalidInput, "cannot read the file");
      }
    }
  }
  close(fd);
  if (!status.ok()) release();
  return status;
}

void FileData::release() {
#ifdef RT_HAVE_MMAP
  if (mapped_) munmap(bytes_, size_);
#endif
  if (!mapped_ && bytes_ != empty_file) free(bytes_);
  bytes_ = nullptr;
  size_ = 0;
  mapped_ = false;
}

}  // namespace rt
