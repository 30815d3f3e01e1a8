"""sgemm GFLOP/s of the optimized library's GEMM against one core's peak.

Usage (from the repository root, with the project's Python)::

    python benchmarks/sgemm.py [--sizes 256 512 1024] [--repeats 10] [--output FILE.md]

Compiles a small C++ driver around the optimized kernels' GEMM (kernels/optimized/gemm.h,
the code `mm.out`, `bmm.out` and `addmm.out` run) with the flags the build gives the
optimized library's objects: BASE_CFLAGS, the toolchain's cflags, then the library's
(Note [Library cflags], codegen/builtin_libraries.py). Configurations: the default -O2 and -O3, with
the `host_avx2` toolchain (docs/kernels.md: `-Os -mavx2 -mfma`), and -O2 with the
default `host` toolchain (x86-64's baseline, SSE2). One thread.

Each n x n x n product of random floats runs `--repeats` times; its time is the minimum
CPU time of the thread (CLOCK_THREAD_CPUTIME_ID). CPU time, not wall time: on a shared
machine (load 9 on 2 cores when measured) a product longer than a scheduler slice is
preempted, and its wall time says more about the neighbours than about the kernel.

One core's peak (single precision) = clock x SIMD lanes x 2 (a fused multiply-add is two
flops) x FMA units per core. The clock is /proc/cpuinfo's "cpu MHz"; the lanes are those of
the SIMD level compiled for (AVX2: 256 bits = 8 floats; SSE2: 4); the FMA units are 2 on
every x86 core with AVX2 since Haswell and Zen (cpuinfo does not list them). "cpu MHz" is
the nominal clock where the core boosts above it (a VM shows its base), so the driver also
measures the peak: a loop of independent FMAs only, timed the same way.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from codegen.manifest import OPTIMIZED_CFLAGS, eigen_include  # noqa: E402
from codegen.plan.objects import BASE_CFLAGS  # noqa: E402

FMA_UNITS = 2


@dataclass(frozen=True)
class Configuration:
    name: str
    flags: tuple[str, ...]  # the toolchain's cflags, then the library's optimization level
    lanes: int  # float32 lanes of the SIMD level


CONFIGURATIONS = [
    Configuration("-O2 (default), host_avx2", ("-Os", "-mavx2", "-mfma", *OPTIMIZED_CFLAGS), 8),
    Configuration("-O3, host_avx2", ("-Os", "-mavx2", "-mfma", "-O3"), 8),
    Configuration("-O2 (default), host (SSE2)", ("-Os", *OPTIMIZED_CFLAGS), 4),
]

DRIVER = r"""
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
#ifdef __FMA__
#include <immintrin.h>
#endif

#include "kernels/optimized/gemm.h"

static double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// argv: repeats, then sizes. Prints "n GFLOP/s" per size, then "fma GFLOP/s" (0 without
// FMA): 12 independent chains of 8-float FMAs, enough in flight for both FMA pipes.
int main(int argc, char** argv) {
  const int repeats = atoi(argv[1]);
  for (int arg = 2; arg < argc; ++arg) {
    const int n = atoi(argv[arg]);
    std::vector<float> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n);
    srand(n);
    for (float& x : a) x = rand() / float(RAND_MAX) - 0.5f;
    for (float& x : b) x = rand() / float(RAND_MAX) - 0.5f;
    const opt::Matrix<const float> ma{a.data(), n, n, n, 1}, mb{b.data(), n, n, n, 1};
    const opt::Matrix<float> mc{c.data(), n, n, n, 1};
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
      const double start = cpu_seconds();
      opt::batched_gemm(1, ma, 0, mb, 0, mc, 0, [](const opt::Matrix<float>&, int64_t, bool) {});
      const double took = cpu_seconds() - start;
      if (took < best) best = took;
    }
    printf("%d %f\n", n, 2.0 * n * n * n / best / 1e9);
  }
  double fma = 0;
#ifdef __FMA__
  __m256 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(0.001f * i);
  const __m256 x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
  const long rounds = 20000000;
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const double start = cpu_seconds();
    for (long k = 0; k < rounds; ++k) {
      for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], x, y);
    }
    const double took = cpu_seconds() - start;
    if (took < best) best = took;
  }
  float sum = 0;
  for (int i = 0; i < 12; ++i) sum += _mm256_cvtss_f32(acc[i]);
  fma = rounds * 12.0 * 8 * 2 / best / 1e9 + 0 * sum;
#endif
  printf("fma %f\n", fma);
}
"""


def cpu() -> tuple[float, str]:
    """The clock in MHz and the model name, from /proc/cpuinfo."""
    text = Path("/proc/cpuinfo").read_text()
    found = re.search(r"^cpu MHz\s*:\s*([0-9.]+)", text, re.MULTILINE)
    model = re.search(r"^model name\s*:\s*(.*)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0, model.group(1) if model else "unknown"


def measure(
    folder: Path, config: Configuration, sizes: list[int], repeats: int
) -> dict[str, float]:
    """GFLOP/s per size (and "fma") of the driver compiled for `config`."""
    source, program = folder / "sgemm.cpp", folder / f"sgemm{len(list(folder.iterdir()))}"
    source.write_text(DRIVER)
    eigen = eigen_include()
    if eigen is None:
        sys.exit("sgemm.py: Eigen's headers are not installed (Debian's libeigen3-dev)")
    # The driver reads the clock: -fno-exceptions and the rest as the build compiles.
    command = ["c++", *BASE_CFLAGS, *config.flags, "-isystem", str(eigen), f"-I{REPO}", str(source)]
    subprocess.run([*command, "-o", str(program)], check=True)
    output = subprocess.run(
        [str(program), str(repeats), *map(str, sizes)], capture_output=True, text=True, check=True
    ).stdout
    return {line.split()[0]: float(line.split()[1]) for line in output.splitlines()}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--output", type=Path)
    options = parser.parse_args()
    mhz, model = cpu()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        results = [measure(Path(folder), c, options.sizes, options.repeats) for c in CONFIGURATIONS]
    loop = max(result["fma"] for result in results)
    lines = [
        f"CPU: {model}, cpu MHz {mhz:.0f}. Peak per core = MHz x lanes x 2 x {FMA_UNITS} FMA "
        f"units: {mhz * 8 * 4 / 1e3:.1f} GFLOP/s with AVX2, {mhz * 4 * 4 / 1e3:.1f} with SSE2. "
        f"Measured AVX2 FMA loop: {loop:.1f} GFLOP/s.",
        "",
        "| optimized library, toolchain | "
        + " | ".join(f"{n}³ GFLOP/s (% of MHz peak, % of FMA loop)" for n in options.sizes)
        + " |",
        "|---|" + "---:|" * len(options.sizes),
    ]
    for config, result in zip(CONFIGURATIONS, results, strict=True):
        peak = mhz * config.lanes * 2 * FMA_UNITS / 1e3
        measured = loop * config.lanes / 8
        cells = []
        for n in options.sizes:
            gflops = result[str(n)]
            cells.append(
                f"{gflops:.1f} ({100 * gflops / peak:.0f} %, {100 * gflops / measured:.0f} %)"
            )
        rows.append(f"| {config.name} | " + " | ".join(cells) + " |")
    text = "\n".join(lines + rows) + "\n"
    print(text)
    if options.output:
        options.output.write_text(text)


if __name__ == "__main__":
    main()
