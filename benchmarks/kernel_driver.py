"""Small C++ drivers around the optimized library's kernel headers, compiled as the build
compiles the library's objects: what benchmarks/depthwise_lanes.py,
depthwise_channels_last.py and big_plane_pair.py share."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
import latency  # noqa: E402

from selective_build.codegen.manifest.builtins import OPTIMIZED, builtin_cflags  # noqa: E402
from selective_build.codegen.plan.objects import BASE_CFLAGS  # noqa: E402

# The start of every driver: headers it uses and the thread CPU clock it times with.
PRELUDE = r"""
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

}  // namespace
"""

LEVELS = ("x86-64-v3", "x86-64-v4")


def has_avx512() -> bool:
    return "avx512f" in latency.cpu_flags()


def add_level_argument(parser: argparse.ArgumentParser) -> None:
    """`--level`, the machine's own by default: a v4 driver stops on an AVX2 processor with
    SIGILL."""
    own = "x86-64-v4" if has_avx512() else "x86-64-v3"
    parser.add_argument("--level", default=own, choices=LEVELS)


# The layers' epilogues by name, as the drivers take them: their numbers in
# runtime/kernel/epilogue.h's rt::EpilogueKind (relu6 is Clamp to [0, 6]).
ACTIVATIONS = {"relu6": 2, "silu": 5}


def add_activation_argument(parser: argparse.ArgumentParser) -> None:
    """`--activation`: MobileNetV2's relu6 (the default) or EfficientNet-B0's SiLU."""
    parser.add_argument("--activation", choices=sorted(ACTIVATIONS), default="relu6")


def check_level(parser: argparse.ArgumentParser, level: str) -> None:
    """Refuses, in one line, a level this processor cannot run."""
    if level == "x86-64-v4" and not has_avx512():
        parser.error("--level x86-64-v4 needs a processor with AVX-512; this one has none")


def run_driver(source: str, level: str, arguments: list[str]) -> str:
    """Compiles `source` with the flags the build gives the optimized library's objects for
    `level` (the toolchain's first, the library's last: its -O2 wins over -Os), one thread,
    and returns what it prints when run with `arguments`."""
    with tempfile.TemporaryDirectory() as folder:
        path, program = Path(folder) / "driver.cpp", Path(folder) / "driver"
        path.write_text(source)
        flags = (*BASE_CFLAGS, "-Os", f"-march={level}", *builtin_cflags(OPTIMIZED))
        command = ["c++", *flags, "-DOPT_THREADS=1", f"-I{REPO}", str(path), "-o", str(program)]
        subprocess.run(command, check=True)
        return subprocess.run(
            [str(program), *arguments], capture_output=True, text=True, check=True
        ).stdout
