"""kernels/optimized/parallel.h on its own (Note [Threads]): chunks, pool reuse, nesting."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.workspace import REPO

PROGRAM = r"""
#include <atomic>
#include <cstdio>
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
  opt::parallel_for(0, 1, [&](int64_t, int64_t) { printf("never\n"); });
  opt::parallel_for(5, 100, [&](int64_t b, int64_t e) { printf("[%ld,%ld)\n", (long)b, (long)e); });
}
"""


@pytest.mark.parametrize(
    ("threads", "chunks"), [(1, "[0,7) 1"), (3, "[0,2)[2,4)[4,7) 3"), (8, "[0,2)[2,4)[4,7) 3")]
)
def test_parallel_for_chunks_and_nesting(tmp_path: Path, threads: int, chunks: str) -> None:
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
    assert result.stdout.splitlines() == [chunks, "200000", "[0,5)"]
