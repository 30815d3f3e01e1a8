"""kernels/optimized/parallel.h on its own (Note [Threads], Note [Claimed work]): items,
coverage, pool reuse, nesting, bodies that stop early."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.workspace import REPO

PROGRAM = r"""
#include <atomic>
#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <thread>
#include "kernels/optimized/parallel.h"

int main() {
  // Chunks of [0, 7) with grain 2: contiguous, in order, each at least 2 long.
  int64_t begins[8] = {0}, ends[8] = {0};
  std::atomic<int> count{0};
  opt::parallel_for(7, 2, [&](int64_t begin, int64_t end) {
    begins[begin] = begin;
    ends[begin] = end;
    ++count;
  });
  for (int64_t at = 0; at < 7; at = ends[at]) printf("[%ld,%ld)", (long)begins[at], (long)ends[at]);
  printf(" %d\n", count.load());
  // Many calls reuse one pool; a parallel_for inside a body runs on the caller's thread.
  std::atomic<long> total{0};
  for (int round = 0; round < 2000; ++round) {
    opt::parallel_for(100, 10, [&](int64_t b, int64_t e) {
      opt::parallel_for(e - b, 1, [&](int64_t b2, int64_t e2) { total += e2 - b2; });
    });
  }
  printf("%ld\n", total.load());
  // Many more units than threads, items of uneven lengths: every index exactly once,
  // whichever thread claims it; no item crosses from one thread's share into the next
  // (Note [Claimed work]); the caller's first item is the front of its own share, unless
  // the workers took all of that share while the caller was not running.
  const std::thread::id caller = std::this_thread::get_id();
  for (int64_t n : {int64_t{13}, int64_t{1000}}) {
    std::atomic<int> seen[1000] = {};
    std::atomic<int> across{0}, caller_not_at_front{0};
    for (int round = 0; round < 200; ++round) {
      opt::parallel_items(n, 1, [&](opt::WorkItems& items) {
        bool first = std::this_thread::get_id() == caller;
        for (int64_t b, e; items.claim(b, e); first = false) {
          caller_not_at_front += first && b != 0 && b < n / opt::kThreads;
          for (int t = 1; t < opt::kThreads; ++t) {
            const int64_t share_end = n * t / opt::kThreads;
            across += b < share_end && share_end < e;
          }
          for (int64_t i = b; i < e; ++i) ++seen[i];
        }
      });
    }
    int wrong = 0;
    for (int64_t i = 0; i < 1000; ++i) wrong += seen[i] != (i < n ? 200 : 0);
    printf("%ld: %d wrong, %d across shares, caller's first in its share"
           " but off its front %d times\n",
           (long)n, wrong, across.load(), caller_not_at_front.load());
  }
  // Bodies that return before claiming every item (a kernel whose scratch failed): the call
  // returns, nobody runs the rest, and the pool serves the next call.
  std::atomic<int> ran{0};
  for (int round = 0; round < 500; ++round) {
    opt::parallel_items(64, 1, [&](opt::WorkItems& items) {
      int64_t b, e;
      if (items.claim(b, e)) ran += static_cast<int>(e - b);
    });
  }
  long after = 0;
  opt::parallel_for(64, 1, [&](int64_t b, int64_t e) { __atomic_add_fetch(&after, e - b, 0); });
  // Each call's body ran one item on the caller and on each worker that joined: never all
  // of [0, 64) with a pool (a claim takes at most half of a share), all of it without one.
  const long r = ran.load();
  const char* early = r == 500 * 64 ? "whole" : r >= 500 && r < 500 * 64 ? "part" : "wrong";
  printf("stopped early: %s, then %ld\n", early, after);
  // Workers whose body returns before its first claim (the units a worker took before its
  // body ran count as taken: the caller waits for nothing that will not come). The caller's
  // items are slow, so the workers wake and take some.
  std::atomic<long> by_caller{0};
  for (int round = 0; round < 50; ++round) {
    opt::parallel_items(64, 1, [&](opt::WorkItems& items) {
      if (std::this_thread::get_id() != caller) return;
      for (int64_t b, e; items.claim(b, e);) {
        by_caller += e - b;
        std::this_thread::sleep_for(std::chrono::microseconds(300));
      }
    });
  }
  const long c = by_caller.load();
  const bool part = c >= 50 && c < 50 * 64;
  printf("workers gave up: %s\n", c == 50 * 64 ? "whole" : part ? "part" : "wrong");
  opt::parallel_for(0, 1, [&](int64_t, int64_t) { printf("never\n"); });
  opt::parallel_for(5, 100, [&](int64_t b, int64_t e) { printf("[%ld,%ld)\n", (long)b, (long)e); });
}
"""


@pytest.mark.parametrize(
    ("threads", "chunks"),
    [(1, "[0,7) 1"), (2, "[0,2)[2,4)[4,7) 3"), (3, "[0,2)[2,4)[4,7) 3"), (8, "[0,2)[2,4)[4,7) 3")],
)
def test_parallel_for_items_coverage_and_nesting(tmp_path: Path, threads: int, chunks: str) -> None:
    source, program = tmp_path / "parallel.cpp", tmp_path / "parallel"
    source.write_text(PROGRAM)
    subprocess.run(
        ["c++", "-std=c++17", "-O1", "-fno-exceptions", "-fno-threadsafe-statics", "-pthread"]
        + [f"-DOPT_THREADS={threads}", f"-I{REPO}", str(source), "-o", str(program)],
        check=True,
        timeout=300,
    )
    # Generous: a deadlock would hang; 2,000 rounds take milliseconds on an idle core.
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        chunks,
        "200000",
        "13: 0 wrong, 0 across shares, caller's first in its share but off its front 0 times",
        "1000: 0 wrong, 0 across shares, caller's first in its share but off its front 0 times",
        f"stopped early: {'part' if threads > 1 else 'whole'}, then 64",
        f"workers gave up: {'part' if threads > 1 else 'whole'}",
        "[0,5)",
    ]
