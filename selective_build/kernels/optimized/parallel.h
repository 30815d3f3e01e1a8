#pragma once

// opt::parallel_for, the one way optimized kernels use threads.
//
// Note [Threads]
// A target's `threads = N` (selective.toml, default 1) compiles its kernels with
// -DOPT_THREADS=N. With 1, parallel_for is a plain call of body(0, n) on the calling
// thread: no pool, no <thread>, no bytes. With N > 1 the first parallel call creates a
// fixed pool of N - 1 workers (never a thread per call); each call splits [0, n) into at
// most N contiguous chunks of at least `grain`, runs the first on the calling thread and
// the others on the workers, and returns when all are done. Kernels split only loops
// whose iterations are independent (never a reduction), and compute each iteration the
// same way whatever the split, so results are bit-identical for every N. A parallel_for
// inside another one's body (a GEMM per image of a batch split over threads) runs on the
// thread that calls it: the pool is busy with the outer loop, and waiting for it would
// deadlock.

#include <cstdint>

#ifndef OPT_THREADS
#define OPT_THREADS 1
#endif

#if OPT_THREADS > 1
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace opt {

constexpr int kThreads = OPT_THREADS;
static_assert(kThreads >= 1, "OPT_THREADS must be at least 1");

#if OPT_THREADS > 1
namespace detail {

// Whether this thread is running a chunk of a parallel_for (a worker always is).
inline bool& inside_parallel() {
  static thread_local bool inside = false;
  return inside;
}

// The fixed pool. Created on first use: kernels run on one thread at a time (a method
// executes its instructions in order), so the function-local static needs no guard
// (-fno-threadsafe-statics); destroyed at exit, joining its workers.
class ThreadPool {
 public:
  using Chunk = void (*)(const void* job, int64_t index);

  static ThreadPool& instance() {
    static ThreadPool pool;
    return pool;
  }

  // Calls chunk(job, i) for i in [0, chunks), chunks <= kThreads: i = 0 on the calling
  // thread, i on worker i - 1; returns when every call has returned.
  void run(Chunk chunk, const void* job, int chunks) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      chunk_ = chunk;
      job_ = job;
      chunks_ = chunks;
      pending_ = chunks - 1;
      ++generation_;
    }
    work_.notify_all();
    inside_parallel() = true;
    chunk(job, 0);
    inside_parallel() = false;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

 private:
  ThreadPool() {
    for (int index = 1; index < kThreads; ++index)
      workers_[index - 1] = std::thread([this, index] { serve(index); });
  }

  void serve(int index) {
    inside_parallel() = true;
    uint64_t seen = 0;
    for (;;) {
      Chunk chunk;
      const void* job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= chunks_) continue;  // this call has fewer chunks than workers
        chunk = chunk_;
        job = job_;
      }
      chunk(job, index);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::thread workers_[kThreads - 1];
  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable done_;
  Chunk chunk_ = nullptr;
  const void* job_ = nullptr;
  int chunks_ = 0;
  int pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

template <typename F>
struct ParallelJob {
  const F* body;
  int64_t n;
  int64_t chunks;

  static void run_chunk(const void* self, int64_t index) {
    const ParallelJob& job = *static_cast<const ParallelJob*>(self);
    // Chunk i is [n * i / chunks, n * (i + 1) / chunks): contiguous, in order, each at
    // least n / chunks >= grain long. n * chunks cannot overflow: n < 2^56 in practice
    // (element counts), chunks <= kThreads.
    (*job.body)(job.n * index / job.chunks, job.n * (index + 1) / job.chunks);
  }
};

}  // namespace detail
#endif

// body(begin, end) over contiguous chunks of [0, n), each at least `grain` long (one
// chunk when n < 2 * grain or one thread is configured). See Note [Threads].
template <typename F>
void parallel_for(int64_t n, int64_t grain, const F& body) {
  if (n <= 0) return;
#if OPT_THREADS > 1
  const int64_t most = n / (grain < 1 ? 1 : grain);
  const int64_t chunks = most < kThreads ? most : kThreads;
  if (chunks > 1 && !detail::inside_parallel()) {
    const detail::ParallelJob<F> job{&body, n, chunks};
    detail::ThreadPool::instance().run(&detail::ParallelJob<F>::run_chunk, &job,
                                       static_cast<int>(chunks));
    return;
  }
#else
  (void)grain;
#endif
  body(int64_t{0}, n);
}

}  // namespace opt
