#pragma once

#include <cstdint>

// Placeholder until the thread pool lands (owned by the GEMM work): the agreed interface,
// run serially. body(begin, end) covers [0, n) in order in chunks of at least `grain`.
namespace opt {

template <typename F>
void parallel_for(int64_t n, int64_t grain, const F& body) {
  (void)grain;
  if (n > 0) body(int64_t{0}, n);
}

}  // namespace opt
