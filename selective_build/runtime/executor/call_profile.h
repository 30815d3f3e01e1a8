#pragma once

// Note [Call profile]
// A runner compiled with -DRT_PROFILE_CALLS (in a toolchain's cflags; benchmarks/
// call_profile.py builds one) times every kernel call of every run on the steady clock,
// summed per instruction over the runs. The runner prints the times, with each call's
// operator and its tensors' shapes, after its timing lines. It says which layers of a model
// take the time and how fast each runs, where a reference gives only a whole model's time.
// Wall time alone: the steady clock is read without a system call (about 25 ns), where a
// CPU-time clock is one (0.7 us on this project's machines), and with a system call around
// each of ResNet's 39 calls a run took 16 % longer than the runner without the profile. So
// profile on a quiet machine. Without the define none of it is compiled: a runner's bytes
// and speed are unchanged.

#ifdef RT_PROFILE_CALLS

#include <cstdint>
#include <ctime>

namespace rt {

// One instruction's kernel calls, summed over the runs.
struct CallTimes {
  int64_t calls;
  int64_t wall_ns;
};

inline int64_t clock_ns(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

}  // namespace rt

#endif
