"""sgemm GFLOP/s of the optimized library's GEMM against one core's measured peak, and
against OpenBLAS (numpy's) in the same run.

Usage (from the repository root, with the project's Python)::

    python benchmarks/sgemm.py [--sizes 256 512 1024] [--repeats 10] [--output FILE.md]

Compiles a small C++ driver around the optimized library's float GEMM
(kernels/optimized/gemm_packed.h, what `mm.out`, `bmm.out`, `addmm.out` and the convolution
run) once per instruction set this machine runs (the built-in toolchains `x86-64-v4` and
`x86-64-v3`, and `x86-64`, the baseline), with the flags the build gives the optimized
library's objects: BASE_CFLAGS, the toolchain's cflags, its `-march`, then the library's
(Note [Library cflags], codegen/manifest/builtins.py). One thread. Per n x n x n product of
random floats, three ways:

- "mm": both operands packed per call, as for two activations;
- "b packed at load": b's panels prepared once (Note [Prepared weights]), as for a Linear's
  or convolution's constant weight; a still packed per call;
- "Eigen": Eigen's GEMM (kernels/optimized/gemm.h), which Float products ran on before and
  Double ones still do.

Each runs `--repeats` times; its time is the minimum CPU time of the thread
(CLOCK_THREAD_CPUTIME_ID): on a shared machine a product longer than a scheduler slice is
preempted, and its wall time says more about the neighbours than about the kernel.

The peak is measured, not computed from a clock (a VM's `cpu MHz` is nominal; cores boost,
and AVX-512 may run slower): the driver, compiled for the same instruction set, times a loop
of fused multiply-adds on the microkernel's own vector type (sgemm::Vec: 16 floats with
AVX-512, 8 with AVX2, 4 otherwise) in 12 to 16 independent chains, more than FMA latency x
FMA units on any x86 core (4 x 2), so the loop runs at the FMA units' throughput. OpenBLAS is
numpy's (`numpy.show_config()` names it), timed in a process started with
OPENBLAS_NUM_THREADS=1, the same way (thread CPU time, minimum of the repeats).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from selective_build.codegen.isa import LEVELS, best_level, isa_flags  # noqa: E402
from selective_build.codegen.manifest import OPTIMIZED_CFLAGS, eigen_include  # noqa: E402
from selective_build.codegen.plan.objects import BASE_CFLAGS  # noqa: E402

HOST_CFLAGS = ("-Os",)  # the host toolchain's, as the built-in ones have

DRIVER = r"""
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "kernels/optimized/gemm.h"
#include "kernels/optimized/gemm_packed.h"

static double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

template <typename F>
static double best_of(int repeats, F&& f) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const double start = cpu_seconds();
    f();
    const double took = cpu_seconds() - start;
    if (took < best) best = took;
  }
  return best;
}

// GFLOP/s of independent FMA chains on the microkernel's vector type.
static double peak(int repeats) {
  using opt::sgemm::Vec;
  constexpr int kChains = sizeof(Vec) == 64 ? 16 : 12;  // 32 or 16 vector registers
  Vec acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = opt::sgemm::splat(0.001f * i);
  Vec x = opt::sgemm::splat(0.999999f);
  const Vec y = opt::sgemm::splat(1e-7f);
  const long rounds = 5000000;
  const double best = best_of(repeats, [&] {
    for (long k = 0; k < rounds; ++k) {
#pragma GCC unroll 16
      for (int i = 0; i < kChains; ++i) acc[i] = opt::sgemm::madd(acc[i], x, y);
      __asm__ volatile("" : "+x"(x));  // x may change: nothing is hoisted or folded
    }
  });
  float sink = 0;
  for (int i = 0; i < kChains; ++i) sink += acc[i][0];
  if (sink == 12345.0f) puts("");
  return rounds * double(kChains) * opt::sgemm::kLanes * 2 / best / 1e9;
}

// argv: repeats, then sizes. Prints "peak GFLOP/s", then per size "n mm packed eigen".
int main(int argc, char** argv) {
  const int repeats = atoi(argv[1]);
  printf("peak %f\n", peak(repeats));
  for (int arg = 2; arg < argc; ++arg) {
    const int n = atoi(argv[arg]);
    std::vector<float> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n);
    srand(n);
    for (float& x : a) x = rand() / float(RAND_MAX) - 0.5f;
    for (float& x : b) x = rand() / float(RAND_MAX) - 0.5f;
    const opt::Matrix<const float> ma{a.data(), n, n, n, 1}, mb{b.data(), n, n, n, 1};
    const opt::Matrix<float> mc{c.data(), n, n, n, 1};
    std::vector<float> packed(opt::packed_b_floats(n, n));
    opt::pack_b(mb, packed.data());
    const double flops = 2.0 * n * n * n / 1e9;
    const double mm = best_of(repeats, [&] { opt::gemm(ma, nullptr, mb, nullptr, mc, {}); });
    const double pre = best_of(repeats, [&] { opt::gemm(ma, nullptr, mb, packed.data(), mc, {}); });
    const double eigen = best_of(repeats, [&] {
      opt::batched_gemm(1, ma, 0, mb, 0, mc, 0, [](const opt::Matrix<float>&, int64_t, bool) {});
    });
    printf("%d %f %f %f\n", n, flops / mm, flops / pre, flops / eigen);
  }
}
"""

OPENBLAS = """
import sys, time
import numpy as np
repeats = int(sys.argv[1])
for n in map(int, sys.argv[2:]):
    rng = np.random.default_rng(n)
    a = rng.random((n, n), dtype=np.float32) - 0.5
    b = rng.random((n, n), dtype=np.float32) - 0.5
    best = 1e30
    for _ in range(repeats):
        start = time.thread_time()
        a @ b
        best = min(best, time.thread_time() - start)
    print(n, 2.0 * n ** 3 / best / 1e9)
"""


@dataclass(frozen=True)
class Result:
    peak: float
    by_size: dict[int, tuple[float, float, float]]  # mm, packed at load, Eigen


def cpu() -> tuple[str, str]:
    """The processor's model name and its vector extensions, from /proc/cpuinfo."""
    text = Path("/proc/cpuinfo").read_text()
    model = re.search(r"^model name\s*:\s*(.*)$", text, re.MULTILINE)
    flags = re.search(r"^flags\s*:\s*(.*)$", text, re.MULTILINE)
    vector = sorted(
        f for f in (flags.group(1).split() if flags else []) if f.startswith(("avx", "fma"))
    )
    return (model.group(1) if model else "unknown"), " ".join(vector)


def measure(folder: Path, isa: str, sizes: list[int], repeats: int) -> Result:
    """The driver compiled for `isa` as the build compiles the optimized library."""
    source, program = folder / "sgemm.cpp", folder / f"sgemm-{isa}"
    source.write_text(DRIVER)
    eigen = eigen_include()
    if eigen is None:
        sys.exit("sgemm.py: Eigen's headers are not installed (Debian's libeigen3-dev)")
    flags = (*BASE_CFLAGS, *HOST_CFLAGS, *isa_flags(isa), *OPTIMIZED_CFLAGS)
    command = ["c++", *flags, "-isystem", str(eigen), f"-I{REPO}", str(source)]
    subprocess.run([*command, "-o", str(program)], check=True)
    output = subprocess.run(
        [str(program), str(repeats), *map(str, sizes)], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    by_size = {}
    for line in output[1:]:
        n, mm, packed, eigen_gflops = line.split()
        by_size[int(n)] = (float(mm), float(packed), float(eigen_gflops))
    return Result(float(output[0].split()[1]), by_size)


def openblas(sizes: list[int], repeats: int) -> dict[int, float]:
    """numpy's a @ b on one thread, GFLOP/s per size."""
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    output = subprocess.run(
        [sys.executable, "-c", OPENBLAS, str(repeats), *map(str, sizes)],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    ).stdout
    return {int(n): float(g) for n, g in (line.split() for line in output.splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--output", type=Path)
    options = parser.parse_args()
    model, vector = cpu()
    best = best_level()
    levels = [level for level in reversed(LEVELS) if LEVELS.index(level) <= LEVELS.index(best)]
    levels = [level for level in levels if level != "x86-64-v2"]  # no wider vectors than SSE2
    with tempfile.TemporaryDirectory() as folder:
        results = {
            isa: measure(Path(folder), isa, options.sizes, options.repeats) for isa in levels
        }
    blas = openblas(options.sizes, options.repeats)
    lines = [
        f"CPU: {model}; vector extensions: {vector}. One thread, thread CPU time, best of "
        f"{options.repeats}.",
        "",
        "| toolchain (isa) | measured FMA peak | n | ours, mm (% of peak) | ours, b packed at "
        "load (% of peak) | Eigen (% of peak) | OpenBLAS, numpy (% of peak) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for isa, result in results.items():
        for n in options.sizes:
            mm, packed, eigen = result.by_size[n]
            cells = [
                f"{g:.1f} ({100 * g / result.peak:.0f} %)" for g in (mm, packed, eigen, blas[n])
            ]
            lines.append(f"| {isa} | {result.peak:.1f} | {n} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if options.output:
        options.output.write_text(text)


if __name__ == "__main__":
    main()
