#include "runtime/runner/file_io.h"

#include <cstdio>
#include <cstdlib>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define RT_HAVE_MMAP 1
#endif

#include "runtime/core/no_plt.h"

namespace rt {

Status FileData::open(const char* path) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer (nor a device for its
  // carrier); what the path is, fstat tells before a byte is read.
  const int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return Status(Error::InvalidInput, "no such file, or it cannot be opened");
  struct stat info;
  const mode_t mode = fstat(fd, &info) == 0 ? info.st_mode : 0;
  // What the path is when it is no regular file: one shared message, "is a <kind>, not a
  // file" (the runner's smallest build counts its read-only bytes). Written into a static
  // buffer: a Status holds static text, and the runner is single-threaded.
  const char* problem =
      S_ISREG(mode) ? nullptr : "is not a regular file";  // a socket, or fstat failed
  const char* kind = S_ISDIR(mode)                    ? "directory"
                     : S_ISFIFO(mode)                 ? "named pipe"
                     : S_ISCHR(mode) || S_ISBLK(mode) ? "device"
                                                      : nullptr;
  if (kind != nullptr) {
    static char text[32];
    snprintf(text, sizeof text, "is a %s, not a file", kind);
    problem = text;
  }
  size_ = problem == nullptr ? static_cast<size_t>(info.st_size) : 0;
#ifdef RT_HAVE_MMAP
  // size_ | 1: the same pages, and a 0-byte file maps one that is never read (bytes_ not null).
  void* mapped = problem == nullptr
                     ? mmap(nullptr, size_ | 1, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
                     : MAP_FAILED;
  bytes_ = mapped != MAP_FAILED ? static_cast<uint8_t*>(mapped) : nullptr;
#else
  bytes_ = problem == nullptr ? static_cast<uint8_t*>(malloc(size_ + 1)) : nullptr;
  for (size_t done = 0; bytes_ != nullptr && done < size_;) {
    const ssize_t got = read(fd, bytes_ + done, size_ - done);
    if (got <= 0) {
      free(bytes_);
      bytes_ = nullptr;
    }
    done += got > 0 ? static_cast<size_t>(got) : 0;
  }
#endif
  close(fd);  // the mapping stays; a failure leaves bytes_ null for the destructor
  if (problem == nullptr && bytes_ == nullptr) problem = "cannot read the file";
  return problem == nullptr ? Status() : Status(Error::InvalidInput, problem);
}

FileData::~FileData() {
#ifdef RT_HAVE_MMAP
  if (bytes_ != nullptr) munmap(bytes_, size_ | 1);  // the pages open() mapped
#else
  free(bytes_);
#endif
}

}  // namespace rt
