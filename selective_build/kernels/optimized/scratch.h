#pragma once

#include <cstddef>
#include <cstdlib>

// Note [Kernel scratch]
// The kernel context has no temporary allocator, and one static buffer would be shared by
// the pool's threads. So each thread owns one buffer, grown (never shrunk) to the largest
// request it has seen and freed when the thread ends: after the first inference there is
// no allocation. It costs, per thread that runs a kernel, the largest scratch of any call
// (im2col: a bounded tile, see op_convolution.cpp). A failed allocation returns nullptr;
// callers fail the call with one line.
namespace opt {

class ThreadScratch {
 public:
  ~ThreadScratch() { std::free(data_); }

  // `bytes` of 64-byte-aligned memory, valid until the next call on this thread.
  void* get(size_t bytes) {
    if (bytes <= size_) return data_;
    std::free(data_);
    size_ = 0;
    const size_t rounded = (bytes + 63) / 64 * 64;
    data_ = std::aligned_alloc(64, rounded);
    if (data_ != nullptr) size_ = rounded;
    return data_;
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

inline ThreadScratch& thread_scratch() {
  static thread_local ThreadScratch scratch;
  return scratch;
}

}  // namespace opt
