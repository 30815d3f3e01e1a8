"""The float GEMM's tiles one by one: what gemm_packed.h's panel heights are chosen from.

Usage (from the repository root, with the project's Python)::

    python benchmarks/gemm_tiles.py [--isa x86-64-v4] [--repeats 5]

Compiles a small C++ driver around kernels/optimized/sgemm_kernel.h and gemm_packed.h with
the flags the build gives the optimized library's objects (as benchmarks/sgemm.py does) for
one instruction set (by default the build machine's best level), and prints, one thread,
thread CPU time, best of the repeats:

1. the microkernel's time per step of the depth for each instantiation a tile may run
   (Note [sgemm microkernel]), its rows' 32 columns from a packed b: the table
   tile_step_cost holds (Note [Balanced row panels]);
2. whole products of convolution-like shapes with a packed in panels of each compiled
   height (PanelsA), and the height panel_height picks;
3. one-row products (Note [One-row tiles]) with b packed at load and read in place.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from selective_build.codegen.isa import best_level, isa_flags  # noqa: E402
from selective_build.codegen.manifest import OPTIMIZED_CFLAGS  # noqa: E402
from selective_build.codegen.plan.objects import BASE_CFLAGS  # noqa: E402

DRIVER = r"""
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "kernels/optimized/gemm_packed.h"

static int repeats;
static double cpu() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
// The least thread CPU time of `repeats` rounds of `iters` calls of f, per call.
template <class F>
static double best(int iters, F&& f) {
  double least = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = cpu();
    for (int i = 0; i < iters; ++i) f();
    const double t = (cpu() - t0) / iters;
    if (t < least) least = t;
  }
  return least;
}

int main(int argc, char** argv) {
  repeats = std::atoi(argv[1]);
  const int depth = 256, kNR = opt::kNR;
  std::vector<float> a(opt::kMR * depth, 0.5f), b(size_t(depth) * kNR * 8, 0.25f);
  std::vector<float> c(size_t(opt::kMR) * kNR * 8);
  printf("| rows of the tile | ns per step | ns per step and row |\n|---:|---:|---:|\n");
  for (int rows = opt::kMR; rows >= 1; rows = opt::sgemm::smaller_tile(rows)) {
    const double t = best(2000, [&] {
      for (int q = 0; q < 8; ++q)
        opt::sgemm::run_microkernel<false>(depth, a.data(), opt::kMR, b.data() + q * depth * kNR,
                                           kNR, nullptr, c.data() + q * kNR, 8 * kNR, rows, kNR,
                                           false, nullptr);
    }) / (8.0 * depth) * 1e9;
    printf("| %d | %.3f | %.3f |\n", rows, t, t / rows);
    if (rows == 1) break;
  }
  const int shapes[][3] = {{16, 144, 3136}, {24, 144, 3136}, {20, 256, 3136}, {32, 288, 784},
                           {48, 288, 784},  {96, 576, 196},  {160, 960, 49}};
  printf("\n| rows x depth x columns | chosen height |");
  for (int h : opt::kPanelHeights) printf(" height %d, GFLOP/s |", h);
  printf("\n|---|---:|");
  for (int h : opt::kPanelHeights) printf("---:|");
  printf("\n");
  for (const auto& s : shapes) {
    const int n = s[0], k = s[1], m = s[2];
    std::vector<float> x(size_t(n) * k, 0.5f), y(size_t(k) * m, 0.25f), z(size_t(n) * m);
    std::vector<float> pb(opt::packed_b_floats(k, m));
    opt::pack_b(opt::Matrix<const float>{y.data(), k, m, m, 1}, pb.data());
    printf("| %d x %d x %d | %ld |", n, k, m, long(opt::panel_height(n)));
    for (int h : opt::kPanelHeights) {
      std::vector<float> pa(opt::packed_a_floats(n, k, h));
      opt::pack_a(opt::Matrix<const float>{x.data(), n, k, k, 1}, pa.data(), h);
      const double t = best(int(2e8 / (double(n) * k * m)) + 1, [&] {
        opt::gemm_packed(k, opt::PanelsA{pa.data(), h}, opt::PanelsB::packed(pb.data(), k),
                         opt::Matrix<float>{z.data(), n, m, m, 1}, opt::Epilogue{});
      });
      printf(" %.1f |", 2.0 * n * k * m / t * 1e-9);
    }
    printf("\n");
  }
  printf("\n| one row: depth x columns | b packed at load, us | b in place, us |\n");
  printf("|---|---:|---:|\n");
  const int rows1[][2] = {{1280, 1000}, {512, 1000}, {1024, 256}, {256, 256}};
  for (const auto& s : rows1) {
    const int k = s[0], m = s[1];
    std::vector<float> x(k, 0.5f), y(size_t(k) * m, 0.25f), z(m), pb(opt::packed_b_floats(k, m));
    const opt::Matrix<const float> mb{y.data(), k, m, m, 1};
    opt::pack_b(mb, pb.data());
    double t[2];
    for (int in_place = 0; in_place < 2; ++in_place)
      t[in_place] = best(int(3e7 / (double(k) * m)) + 1, [&] {
        opt::gemm(opt::Matrix<const float>{x.data(), 1, k, k, 1}, nullptr, mb,
                  in_place ? nullptr : pb.data(), opt::Matrix<float>{z.data(), 1, m, m, 1},
                  opt::Epilogue{});
      });
    printf("| %d x %d | %.2f | %.2f |\n", k, m, t[0] * 1e6, t[1] * 1e6);
  }
  return 0;
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--isa", default=best_level())
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source, program = Path(folder) / "tiles.cpp", Path(folder) / "tiles"
        source.write_text(DRIVER)
        flags = (*BASE_CFLAGS, "-Os", *isa_flags(options.isa), *OPTIMIZED_CFLAGS)
        command = ["c++", *flags, "-DOPT_THREADS=1", f"-I{REPO}", str(source), "-o", str(program)]
        subprocess.run(command, check=True)
        output = subprocess.run(
            [str(program), str(options.repeats)], capture_output=True, text=True, check=True
        ).stdout
    print(f"Instruction set {options.isa}; one thread, thread CPU time, best of {options.repeats}.")
    print(output)


if __name__ == "__main__":
    main()
