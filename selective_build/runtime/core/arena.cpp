#include "runtime/core/arena.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "runtime/core/no_plt.h"

namespace rt {

// Note [Cache-line allocations]
// In the runners of real models, a block of at least a cache line starts on one: a planned buffer then holds its tensors
// at the offsets the exporter planned (multiples of 16 or more) from an aligned base, so a
// channels-last tensor's pixels, 64 channels' bytes apart and more, are loaded a vector
// per cache line. From calloc's 16-byte alignment every 64-byte vector of MobileNetV2's
// channels-last activations straddled two lines, and its large layers ran 1.5-1.7x
// slower. Smaller blocks (the method's tables) keep the header alone.
constexpr size_t kCacheLine = 64;

struct alignas(16) Arena::Block {
  Block* next;
#ifdef RT_FOLD_CONSTANTS
  void* data;  // where its bytes start: right after this header, or on the next line
  void* bytes() const { return data; }
#else
  void* bytes() { return this + 1; }
#endif
};

Arena::~Arena() {
  while (head_ != nullptr) {
    Block* next = head_->next;
    free(head_);
    head_ = next;
  }
}

void* Arena::allocate(size_t bytes) {
  // Past half the address space no allocation succeeds anyway.
  if (static_cast<ptrdiff_t>(bytes) < 0) return nullptr;
#ifdef RT_FOLD_CONSTANTS
  // Compiled in with the load-time preparation (Note [Constant folding at load]), for the
  // runners of real models' vector kernels: add_mul's has no code bytes to spare. The
  // slack is as many bytes as moving the data up to a line may take (calloc's alignment
  // may be 8).
  const size_t slack = bytes < kCacheLine ? 0 : kCacheLine - 1;
#else
  const size_t slack = 0;
#endif
  Block* block = static_cast<Block*>(calloc(1, sizeof(Block) + slack + bytes));
  if (block == nullptr) return nullptr;
#ifdef RT_FOLD_CONSTANTS
  // ~slack: a line's multiple at or below (slack 63), or the address itself (slack 0).
  block->data = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(block + 1) + slack) & ~slack);
#endif
  block->next = head_;
  head_ = block;
  return block->bytes();
}

void Arena::release(void* data) {
  for (Block** link = &head_; *link != nullptr; link = &(*link)->next) {
    if ((*link)->bytes() == data) {
      Block* block = *link;
      *link = block->next;
      free(block);
      return;
    }
  }
}

}  // namespace rt
