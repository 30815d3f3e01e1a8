#include "runtime/core/arena.h"

#include <cstdint>
#include <cstdlib>

#include "runtime/core/no_plt.h"

namespace rt {

// Note [Cache-line allocations]
// A block of at least a cache line starts on one: a planned buffer then holds its tensors
// at the offsets the exporter planned (multiples of 16 or more) from an aligned base, so a
// channels-last tensor's pixels, 64 channels' bytes apart and more, are loaded a vector
// per cache line. From calloc's 16-byte alignment every 64-byte vector of MobileNetV2's
// channels-last activations straddled two lines, and its large layers ran 1.5-1.7x
// slower. Smaller blocks (the method's tables) keep the header alone.
constexpr size_t kCacheLine = 64;

struct alignas(16) Arena::Block {
  Block* next;
  void* raw;  // what calloc returned
};

Arena::~Arena() {
  while (head_ != nullptr) {
    Block* next = head_->next;
    free(head_->raw);
    head_ = next;
  }
}

void* Arena::allocate(size_t bytes) {
  const size_t slack = bytes >= kCacheLine ? kCacheLine - 1 : 0;
  if (bytes > static_cast<size_t>(-1) - sizeof(Block) - slack) return nullptr;
  void* raw = calloc(1, sizeof(Block) + slack + bytes);
  if (raw == nullptr) return nullptr;
  uintptr_t data = reinterpret_cast<uintptr_t>(raw) + sizeof(Block);
  if (slack != 0) data = (data + slack) & ~static_cast<uintptr_t>(kCacheLine - 1);
  Block* block = reinterpret_cast<Block*>(data) - 1;
  block->next = head_;
  block->raw = raw;
  head_ = block;
  return block + 1;
}

void Arena::release(void* data) {
  for (Block** link = &head_; *link != nullptr; link = &(*link)->next) {
    if (*link + 1 == data) {
      Block* block = *link;
      *link = block->next;
      free(block->raw);
      return;
    }
  }
}

}  // namespace rt
