#pragma once

// Note [Call profile]
// A runner compiled with -DRT_PROFILE_CALLS (in a toolchain's cflags; benchmarks/
// call_profile.py builds one) times every kernel call of every run: the wall time (the
// steady clock) and the CPU time of the whole process (every thread's, so a parallel
// kernel's workers count), summed per instruction over the runs. The runner prints them,
// with each call's operator and its tensors' shapes, after its timing lines. It says which
// layers of a model take the time and how fast each runs, where a reference gives only a
// whole model's time. Reading the two clocks costs about a microsecond per call, taken
// outside what is timed. Without the define none of it is compiled: a runner's bytes and
// speed are unchanged.

#ifdef RT_PROFILE_CALLS

#include <cstdint>
#include <ctime>

namespace rt {

// One instruction's kernel calls, summed over the runs.
struct CallTimes {
  int64_t calls;
  int64_t wall_ns;
  int64_t cpu_ns;
};

inline int64_t clock_ns(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

}  // namespace rt

#endif
