#include "runtime/core/arena.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(RT_PREPARE) && defined(__linux__)
#include <sys/mman.h>
#endif

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

// Note [Huge pages]
// A runner of a real model keeps its activations in a few planned buffers of megabytes
// (MobileNetV2's 112x112 layers read and write 4.8 MB planes), and streams through them
// every layer: with 4 KiB pages every such pass misses the TLB once a page. On Linux a
// block of at least a huge page is mapped on its own, from a 2 MiB boundary, and advised
// MADV_HUGEPAGE, so the kernel backs it with huge pages where it can (the default
// `transparent_hugepage` setting, `madvise`, gives them to advised mappings only).
// Advice, not a request: without huge pages the block is ordinary zeroed memory. Measured
// in benchmarks/RESULTS.md, "Huge pages for the planned buffers". Compiled into the runners
// that pack weights at load (RT_PREPARE: the optimized library's convolution and matrix
// products), not into the small portable ones, whose size budgets have no page to spare.
#if defined(RT_PREPARE) && defined(__linux__) && defined(MADV_HUGEPAGE)
#define RT_HUGE_BLOCKS 1
constexpr size_t kHugePage = size_t{2} << 20;
#endif

struct alignas(16) Arena::Block {
  Block* next;
#ifdef RT_FOLD_CONSTANTS
  void* data;  // where its bytes start: right after this header, or on the next line
#ifdef RT_HUGE_BLOCKS
  size_t mapped;  // the length of its own mapping (Note [Huge pages]), or 0 from calloc
#endif
  void* bytes() const { return data; }
#else
  void* bytes() { return this + 1; }
#endif
};

// Returns a block's memory to the system, however it was taken.
void Arena::release_block(Block* block) {
#ifdef RT_HUGE_BLOCKS
  if (block->mapped != 0) {
    munmap(block, block->mapped);
    return;
  }
#endif
  free(block);
}

#ifdef RT_HUGE_BLOCKS
// A block of `bytes` (at least a huge page) in a mapping of its own: the header at the
// mapping's start, the data from the first 2 MiB boundary after it, advised for huge pages
// (Note [Huge pages]). Fresh anonymous pages are zero.
Arena::Block* Arena::map_huge_block(size_t bytes) {
  const size_t length = bytes + kHugePage;  // room to move the data up to the boundary
  void* mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  auto* block = static_cast<Block*>(mapping);
  const uintptr_t data =
      (reinterpret_cast<uintptr_t>(block + 1) + kHugePage - 1) & ~(kHugePage - 1);
  block->data = reinterpret_cast<void*>(data);
  block->mapped = length;
  madvise(block->data, bytes, MADV_HUGEPAGE);  // advice: refused, the pages are ordinary ones
  return block;
}
#endif

Arena::~Arena() {
  while (head_ != nullptr) {
    Block* next = head_->next;
    release_block(head_);
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
  Block* block = nullptr;
#ifdef RT_HUGE_BLOCKS
  if (bytes >= kHugePage) block = map_huge_block(bytes);
#endif
  if (block == nullptr) {
    block = static_cast<Block*>(calloc(1, sizeof(Block) + slack + bytes));  // any `mapped`: 0
    if (block == nullptr) return nullptr;
#ifdef RT_FOLD_CONSTANTS
    // ~slack: a line's multiple at or below (slack 63), or the address itself (slack 0).
    block->data =
        reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(block + 1) + slack) & ~slack);
#endif
  }
  block->next = head_;
  head_ = block;
  return block->bytes();
}

void Arena::release(void* data) {
  for (Block** link = &head_; *link != nullptr; link = &(*link)->next) {
    if ((*link)->bytes() == data) {
      Block* block = *link;
      *link = block->next;
      release_block(block);
      return;
    }
  }
}

}  // namespace rt
