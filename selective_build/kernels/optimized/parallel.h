#pragma once

// opt::parallel_for and opt::parallel_items, the one way optimized kernels use threads.
//
// Note [Threads]
// A target's `threads = N` (selective.toml, default 1) compiles its kernels with
// -DOPT_THREADS=N. With 1, a parallel call is a plain call of the body over [0, n) on the
// calling thread: no pool, no <thread>, no bytes. With N > 1 the first parallel call
// creates a fixed pool of N - 1 workers (never a thread per call). Each call cuts [0, n)
// into units of at least `grain` (at most kMaxUnits), and thread t (the caller is 0) owns
// the t-th of N equal shares of them: it claims runs from its share's front, each half of
// what is left of it, and once its share is empty it takes half of what is left of the
// fullest other share, from that share's end. So the caller starts at once, a worker that
// wakes late costs the call nothing but the work it did not take, at the end the threads
// wait for one another at most about a unit, and consecutive layers over the same pixels
// give each thread mostly the rows it wrote, still in its own core's cache (Note [Claimed
// work]). Kernels split only loops whose iterations are independent (never a reduction),
// and compute each iteration the same way whatever the split, so results are bit-identical
// for every N. A parallel call inside another one's body (a GEMM per image of a batch split
// over threads) runs on the thread that calls it: the pool is busy with the outer loop, and
// waiting for it would deadlock.

#include <cstdint>

#ifndef OPT_THREADS
#define OPT_THREADS 1
#endif

#if OPT_THREADS > 1
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace opt {

constexpr int kThreads = OPT_THREADS;
static_assert(kThreads >= 1 && kThreads <= 256, "OPT_THREADS must be in [1, 256]");

// The units a call is cut into, at most (Note [Claimed work]: they fit its 16-bit fields).
constexpr int64_t kMaxUnits = 4096;

#if OPT_THREADS > 1
namespace detail {

// Whether this thread is running a parallel call's body (a worker always is).
inline bool& inside_parallel() {
  static thread_local bool inside = false;
  return inside;
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

// Note [Claimed work]
// A call's units are cut into N shares, one per thread (the caller's is the first, worker
// w's the (w + 1)-th), each a 64-bit word: the call's serial number (high 32 bits), the end
// of what is left of the share (16 bits) and its next unit (low 16). A thread claims a run
// of units (an item) by a compare-and-swap that checks the serial, so a thread still
// holding a finished call's body can never take an item of the next call: from the front
// of its own share, half of what is left (at least one unit), or, its share empty, from the
// end of the share with the most left, half of that. Halves: a claim (one atomic operation)
// is nothing beside the work it hands out, the last items are single units, so no thread
// waits long for another, and what a thread has not yet claimed is always at least what it
// is working on, so there is something to take from a late one. Taking from the end keeps
// the owner's run contiguous. Why shares rather than one counter: a layer's thread t then
// computes mostly the t-th share of the pixels, as it did in the layer before, and reads
// the rows it wrote from its own core's L2, not the other's (the one counter interleaved
// the threads' claims differently in every layer; MobileNetV2's calls on two threads took
// 0.98 of their time with it, its depthwise layers 0.94: benchmarks/RESULTS.md, "Threads'
// shares"). Everything else a call publishes (body, n, count) is written before the words
// (release) and read only after a successful claim (acquire): while an item is unfinished
// its caller has not returned, so those fields are still that call's. Which units an item covers depends on who claims it, never what a
// unit computes. When its body ends a worker adds the units it took to `finished_`; the
// caller returns once the units it did not take are all there.
//
// Waiting is short spins bounded in time, then sleep: a worker keeps looking for the next
// call for kIdleSpin after one ends (the next layer usually starts within microseconds, and
// a wake-up from sleep costs tens), and the caller spins up to kFinishSpin for a worker's
// last item before it sleeps. Bounded, so an idle pool costs no CPU. The bounds were
// measured (benchmarks/RESULTS.md, "Claimed work items"): 50 and 200 microseconds cost more
// CPU for the same speed; no spin at all brought the slow wake-ups back.
constexpr std::chrono::microseconds kIdleSpin{20};
constexpr std::chrono::microseconds kFinishSpin{100};

class ThreadPool;

}  // namespace detail

// Units [first, last) of a call's count, claimed together; empty when none was left.
struct UnitRun {
  int64_t first = 0;
  int64_t last = 0;
};

// The items of one parallel call as one thread sees them: claim() gives the next unclaimed
// item's [begin, end) until none is left.
class WorkItems {
 public:
  // Items of call `serial` of `pool`, `first` already claimed (or empty); with no pool, the
  // one item [0, n) of a call run on its caller alone.
  // `first` counts as taken from the start: a body that returns before its first claim (a
  // kernel whose scratch failed) still reports those units finished, or its caller would
  // wait for them forever.
  WorkItems(detail::ThreadPool* pool, uint32_t serial, int self, int64_t n, int64_t count,
            UnitRun first)
      : pool_(pool),
        serial_(serial),
        self_(self),
        n_(n),
        count_(count),
        first_(first),
        taken_(first.last - first.first) {}

  bool claim(int64_t& begin, int64_t& end);

 private:
  friend class detail::ThreadPool;
  detail::ThreadPool* pool_;
  uint32_t serial_;
  int self_;  // which share is this thread's (Note [Claimed work])
  int64_t n_;
  int64_t count_;
  UnitRun first_;  // units claimed before the body ran (a worker's), or empty
  int64_t taken_;
};

namespace detail {

// The fixed pool. Created on first use: kernels run on one thread at a time (a method
// executes its instructions in order), so the function-local static needs no guard
// (-fno-threadsafe-statics); destroyed at exit, joining its workers.
class ThreadPool {
 public:
  using Body = void (*)(const void* body, WorkItems& items);

  static ThreadPool& instance() {
    static ThreadPool pool;
    return pool;
  }

  // Runs body(items) on the calling thread and on every worker that wakes before the
  // `count` units of [0, n) are claimed; returns when every unit is finished. Not inlined:
  // one copy serves every kernel's calls (it is a few hundred bytes, called once a layer).
  [[gnu::noinline]] void run(Body body, const void* context, int64_t n, int64_t count) {
    body_ = body;
    context_ = context;
    n_ = n;
    count_ = count;
    finished_.store(0, std::memory_order_relaxed);
    const uint32_t serial = ++serial_;
    for (int t = 0; t < kThreads; ++t)
      shares_[t].store(uint64_t{serial} << 32 |
                       static_cast<uint64_t>(count * (t + 1) / kThreads) << 16 |
                       static_cast<uint64_t>(count * t / kThreads));
    if (sleepers_.load() > 0) {
      { std::lock_guard<std::mutex> lock(mutex_); }
      work_.notify_all();
    }
    WorkItems items(this, serial, 0, n, count, UnitRun{});
    inside_parallel() = true;
    body(context, items);
    inside_parallel() = false;
    // A body may return before claiming every item (a kernel that fails): close the call,
    // so no worker starts one, and wait only for the items workers took.
    const int64_t others = count - items.taken_ - close(serial);
    const auto until = std::chrono::steady_clock::now() + kFinishSpin;
    for (int spins = 0; finished_.load(std::memory_order_acquire) != others; ++spins) {
      cpu_relax();
      if (spins % 64 == 63 && std::chrono::steady_clock::now() > until) {
        std::unique_lock<std::mutex> lock(mutex_);
        caller_sleeps_.store(true);
        done_.wait(lock, [&] { return finished_.load() == others; });
        caller_sleeps_.store(false, std::memory_order_relaxed);
        break;
      }
    }
  }

  // Thread `self`'s next item of call `serial` (Note [Claimed work]): from its own share's
  // front, else from the end of the fullest other share; empty when none is left or the
  // call is over.
  UnitRun claim(uint32_t serial, int self) {
    for (;;) {
      uint64_t word = shares_[self].load(std::memory_order_acquire);
      if (word >> 32 != serial) return UnitRun{};
      const int64_t next = static_cast<int64_t>(word & 0xffff);
      const int64_t end = static_cast<int64_t>(word >> 16 & 0xffff);
      if (next < end) {
        const int64_t take = (end - next + 1) / 2;
        if (shares_[self].compare_exchange_weak(word, word + static_cast<uint64_t>(take),
                                                std::memory_order_acq_rel))
          return UnitRun{next, next + take};
        continue;
      }
      int fullest = -1;
      int64_t most = 0;
      for (int t = 0; t < kThreads; ++t) {
        const uint64_t other = shares_[t].load(std::memory_order_acquire);
        const int64_t left =
            static_cast<int64_t>(other >> 16 & 0xffff) - static_cast<int64_t>(other & 0xffff);
        if (other >> 32 == serial && left > most) fullest = t, most = left;
      }
      if (fullest < 0) return UnitRun{};
      uint64_t other = shares_[fullest].load(std::memory_order_acquire);
      const int64_t from = static_cast<int64_t>(other & 0xffff);
      const int64_t until = static_cast<int64_t>(other >> 16 & 0xffff);
      if (other >> 32 != serial || from >= until) continue;
      const int64_t take = (until - from + 1) / 2;
      if (shares_[fullest].compare_exchange_weak(other, other - (static_cast<uint64_t>(take) << 16),
                                                 std::memory_order_acq_rel))
        return UnitRun{until - take, until};
    }
  }

  // Marks every item of call `serial` claimed; returns how many were not.
  int64_t close(uint32_t serial) {
    int64_t unclaimed = 0;
    for (std::atomic<uint64_t>& share : shares_) {
      uint64_t word = share.load(std::memory_order_acquire);
      for (;;) {
        const uint64_t next = word & 0xffff, end = word >> 16 & 0xffff;
        if (word >> 32 != serial || next >= end) break;
        if (share.compare_exchange_weak(word, word - next + end, std::memory_order_acq_rel)) {
          unclaimed += static_cast<int64_t>(end - next);
          break;
        }
      }
    }
    return unclaimed;
  }

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true);
    }
    work_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

 private:
  ThreadPool() {
    for (int w = 0; w < kThreads - 1; ++w) workers_[w] = std::thread([this, w] { serve(w + 1); });
  }

  // Whether a call after `seen` started (or the pool stops), sleeping when none does
  // within kIdleSpin. `self`'s share says so.
  bool await_call(int self, uint32_t seen) {
    const auto started = [&] { return stop_.load() || shares_[self].load() >> 32 != seen; };
    const auto until = std::chrono::steady_clock::now() + kIdleSpin;
    for (int spins = 0; !started(); ++spins) {
      cpu_relax();
      if (spins % 64 == 63 && std::chrono::steady_clock::now() > until) {
        std::unique_lock<std::mutex> lock(mutex_);
        sleepers_.fetch_add(1);
        work_.wait(lock, started);
        sleepers_.fetch_sub(1);
        break;
      }
    }
    return !stop_.load();
  }

  // Worker `self`'s loop (its share is the self-th).
  void serve(int self) {
    inside_parallel() = true;
    uint32_t seen = 0;
    while (await_call(self, seen)) {
      seen = static_cast<uint32_t>(shares_[self].load(std::memory_order_acquire) >> 32);
      const UnitRun first = claim(seen, self);
      if (first.first == first.last) continue;  // the others took every unit before it woke
      WorkItems items(this, seen, self, n_, count_, first);
      body_(context_, items);
      finished_.fetch_add(items.taken_);
      if (caller_sleeps_.load()) {
        { std::lock_guard<std::mutex> lock(mutex_); }
        done_.notify_one();
      }
    }
  }

  std::thread workers_[kThreads - 1];
  std::atomic<uint64_t> shares_[kThreads] = {};  // Note [Claimed work]
  uint32_t serial_ = 0;                          // the last call's; only the caller's thread
  std::atomic<int64_t> finished_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> caller_sleeps_{false};
  std::atomic<bool> stop_{false};
  Body body_ = nullptr;
  const void* context_ = nullptr;
  int64_t n_ = 0;
  int64_t count_ = 0;
  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable done_;
};

}  // namespace detail

inline bool WorkItems::claim(int64_t& begin, int64_t& end) {
  UnitRun run = first_;
  first_ = UnitRun{};
  if (run.first == run.last && pool_ != nullptr) {
    run = pool_->claim(serial_, self_);
    taken_ += run.last - run.first;
  }
  if (run.first == run.last) return false;
  // Unit u is [n * u / count, n * (u + 1) / count): at least n / count >= grain long.
  // n * count cannot overflow: n < 2^48 in practice (element counts), count <= 2^12.
  begin = n_ * run.first / count_;
  end = n_ * run.last / count_;
  return true;
}

#else

class WorkItems {
 public:
  explicit WorkItems(int64_t n) : n_(n) {}
  bool claim(int64_t& begin, int64_t& end) {
    begin = 0;
    end = n_;
    const bool first = n_ > 0;
    n_ = 0;
    return first;
  }

 private:
  int64_t n_;
};

#endif

// body(items) on every thread that takes part, each claiming items of [0, n) (at least
// `grain` long) with items.claim(begin, end) until it returns false; one item, [0, n), when
// n < 2 * grain or one thread is configured. For a body that keeps per-thread state from one
// item to the next (scratch, packed columns). See Note [Threads].
template <typename F>
void parallel_items(int64_t n, int64_t grain, const F& body) {
  if (n <= 0) return;
#if OPT_THREADS > 1
  const int64_t most = n / (grain < 1 ? 1 : grain);
  const int64_t count = most < kMaxUnits ? most : kMaxUnits;
  if (count > 1 && !detail::inside_parallel()) {
    detail::ThreadPool::instance().run(
        [](const void* context, WorkItems& items) { (*static_cast<const F*>(context))(items); },
        &body, n, count);
    return;
  }
  WorkItems items(nullptr, 0, 0, n, 1, UnitRun{0, 1});
  body(items);
#else
  (void)grain;
  WorkItems items(n);
  body(items);
#endif
}

// body(begin, end) over contiguous items of [0, n), each at least `grain` long, on
// whichever threads claim them (one item when n < 2 * grain or one thread is configured).
template <typename F>
void parallel_for(int64_t n, int64_t grain, const F& body) {
  parallel_items(n, grain, [&body](WorkItems& items) {
    for (int64_t begin, end; items.claim(begin, end);) body(begin, end);
  });
}

}  // namespace opt
