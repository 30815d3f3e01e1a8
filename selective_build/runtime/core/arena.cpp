#include "runtime/core/arena.h"

#include <cstdlib>

#include "runtime/core/no_plt.h"

namespace rt {

struct alignas(16) Arena::Block {
  Block* next;
};

Arena::~Arena() {
  while (head_ != nullptr) {
    Block* next = head_->next;
    free(head_);
    head_ = next;
  }
}

void* Arena::allocate(size_t bytes) {
  if (bytes > static_cast<size_t>(-1) - sizeof(Block)) return nullptr;
  Block* block = static_cast<Block*>(calloc(1, sizeof(Block) + bytes));
  if (block == nullptr) return nullptr;
  block->next = head_;
  head_ = block;
  return block + 1;
}

void Arena::release(void* data) {
  for (Block** link = &head_; *link != nullptr; link = &(*link)->next) {
    if (*link + 1 == data) {
      Block* block = *link;
      *link = block->next;
      free(block);
      return;
    }
  }
}

}  // namespace rt
