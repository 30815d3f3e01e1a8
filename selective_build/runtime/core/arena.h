#pragma once

#include <cstddef>
#include <new>
#include <type_traits>

namespace rt {

// Owns every allocation a Method makes while it loads; all of it is released
// together when the arena goes away. Nothing is allocated after load.
class Arena {
 public:
  Arena() = default;
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Zero-filled, aligned for any scalar and, from 64 bytes on, to a cache line (Note
  // [Cache-line allocations] in arena.cpp); nullptr when the system is out of memory.
  void* allocate(size_t bytes);

  // Frees what allocate() returned for `data` before the arena goes (memory only load
  // needed: Note [Prepared weights] in runtime/kernel/kernel_context.h). Anything else is
  // ignored.
  void release(void* data);

  // `count` value-initialized T; nullptr on overflow or out of memory.
  template <typename T>
  T* allocate_array(size_t count) {
    static_assert(std::is_trivially_destructible<T>::value, "the arena never runs destructors");
    if (count > static_cast<size_t>(-1) / sizeof(T)) return nullptr;
    T* items = static_cast<T*>(allocate(count * sizeof(T)));
    // Zero-filled memory already is a value-initialized trivial T.
    if constexpr (!std::is_trivially_default_constructible<T>::value) {
      for (size_t i = 0; items != nullptr && i < count; ++i) new (items + i) T();
    }
    return items;
  }

 private:
  struct Block;
  static Block* map_huge_block(size_t bytes);  // Note [Huge pages] in arena.cpp
  static void release_block(Block* block);
  Block* head_ = nullptr;
};

}  // namespace rt
