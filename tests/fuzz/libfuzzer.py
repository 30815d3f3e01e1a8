"""The libFuzzer target for the C++ loader (`tests/fuzz/libfuzzer/fuzz_loader.cpp`), when
clang and its libFuzzer runtime are installed (Debian: `clang libclang-rt-14-dev`).

The runtime and every kernel are built by doit as an ordinary target with a clang
toolchain instrumented for coverage (`-fsanitize=fuzzer-no-link`) and ASan+UBSan, into
build/fuzz_libfuzzer/; its `libruntime.a` (runtime, kernels and registration, without the
runner's command line) is linked with the target, whose `main` is libFuzzer's. The seed
corpus is the example programs.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from tests.fuzz.sanitized import ASAN_OPTIONS
from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, REPO, build_in_repository

SOURCE = REPO / "tests" / "fuzz" / "libfuzzer" / "fuzz_loader.cpp"
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-sanitize=vptr"]
MANIFEST = (
    """# Written by tests/fuzz/libfuzzer.py: every kernel, for the libFuzzer loader target.
[toolchains.libfuzzer]
compiler = "clang++"
cflags = ["-O1", "-fsanitize=fuzzer-no-link,address,undefined", "-fno-sanitize-recover=all",
          "-fno-sanitize=vptr"]
ldflags = ["-fsanitize=fuzzer-no-link,address,undefined"]
"""
    + BOTH_LIBRARIES_FROM_BUILD
    + """
[targets.fuzz_libfuzzer]
libraries = ["portable", "prim"]
include_all_operators = true
toolchain = "libfuzzer"
"""
)
ENVIRONMENT = {**os.environ, "ASAN_OPTIONS": ASAN_OPTIONS}


@functools.cache
def available() -> bool:
    """Whether clang++ can link a libFuzzer target here."""
    clang = shutil.which("clang++")
    if clang is None:
        return False
    probe = REPO / "build" / f"libfuzzer-probe.{os.getpid()}"  # one per test worker
    probe.parent.mkdir(exist_ok=True)
    result = subprocess.run(
        [clang, "-fsanitize=fuzzer", "-x", "c++", "-", "-o", str(probe)],
        input=b'#include <cstddef>\n#include <cstdint>\nextern "C" int '
        b"LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n",
        capture_output=True,
        timeout=300,
        check=False,
    )
    probe.unlink(missing_ok=True)
    return result.returncode == 0


def build() -> Path:
    """The libFuzzer binary (the runtime built incrementally by doit, the target relinked)."""
    runner = build_in_repository("fuzz-libfuzzer.toml", MANIFEST, "fuzz_libfuzzer")
    library = runner.parent / "libruntime.a"
    binary = runner.parent / "fuzz_loader"
    command = ["clang++", "-std=c++17", "-O1", "-fno-exceptions", "-fno-rtti"]
    command += ["-fsanitize=fuzzer", *SANITIZE, f"-I{REPO}", str(SOURCE), str(library)]
    # Linked aside and renamed: another test worker may be running the one there now.
    temporary = binary.with_name(f"{binary.name}.{os.getpid()}.tmp")
    subprocess.run([*command, "-o", str(temporary)], check=True, timeout=600, capture_output=True)
    os.replace(temporary, binary)
    return binary


def seed_corpus(folder: Path) -> Path:
    """A fresh corpus folder holding the example programs."""
    folder.mkdir(parents=True, exist_ok=True)
    for program in sorted((REPO / "examples" / "models").glob("*/*.pte")):
        shutil.copyfile(program, folder / program.name)
    return folder


def run(
    binary: Path, corpus: Path, artifacts: Path, seed: int, runs: int, seconds: int
) -> subprocess.CompletedProcess[str]:
    """`runs` inputs (or `seconds`, whichever ends first), reproducible from `seed`; a
    crash, sanitizer report, leak or slow input is written under `artifacts`."""
    artifacts.mkdir(parents=True, exist_ok=True)
    command = [str(binary), f"-seed={seed}", f"-runs={runs}", f"-max_total_time={seconds}"]
    # No RSS or malloc limit of libFuzzer's: a hostile plan may ask for terabytes, which the
    # loader must refuse as out of memory (ASan returns null, ASAN_OPTIONS), not crash on.
    # A unit is slow at 30 s, a hang at 60 s: generous on a loaded machine (most take < 1 ms).
    command += ["-max_len=262144", "-rss_limit_mb=0", "-timeout=60", "-report_slow_units=30"]
    command += ["-print_final_stats=1"]
    command += [f"-artifact_prefix={artifacts}/", str(corpus)]
    return subprocess.run(
        command, capture_output=True, text=True, env=ENVIRONMENT, timeout=seconds + 600, check=False
    )
