"""The libFuzzer target for the C++ loader (`tests/fuzz/libfuzzer/fuzz_loader.cpp`), when
clang and its libFuzzer runtime are installed (Debian: `clang libclang-rt-14-dev`).

The runtime and every kernel are built by doit as an ordinary target with a clang
toolchain instrumented for coverage (`-fsanitize=fuzzer-no-link`) and ASan+UBSan, into
build/fuzz_libfuzzer/; its `libruntime.a` (runtime, kernels and registration, without the
runner's command line) is linked with the target, whose `main` is libFuzzer's. The seed
corpus is the example programs and the real exporter's conformance programs (at most
MAX_LEN bytes); what a long run found is minimised (`merge`, libFuzzer's `-merge=1`) into
the kept corpus, tests/fuzz/corpus/libfuzzer/, which the test suite replays.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from tests.fuzz.kept import CORPUS
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
# The longest input: the small examples and every conformance program fit; the large
# examples (weights, mostly) are left to the Python harness, and the kept corpus stays small.
MAX_LEN = 32768


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
    """The libFuzzer binary (the runtime built incrementally by doit; the target relinked
    when the library or its source is newer, under a temporary name: tests may run at once)."""
    runner = build_in_repository("fuzz-libfuzzer.toml", MANIFEST, "fuzz_libfuzzer")
    library = runner.parent / "libruntime.a"
    binary = runner.parent / "fuzz_loader"
    newest = max(library.stat().st_mtime_ns, SOURCE.stat().st_mtime_ns)
    if binary.exists() and binary.stat().st_mtime_ns >= newest:
        return binary
    # Linked aside and renamed: another test worker may be running the one there now.
    temporary = binary.with_name(f"{binary.name}.{os.getpid()}.tmp")
    command = ["clang++", "-std=c++17", "-O1", "-fno-exceptions", "-fno-rtti"]
    command += ["-fsanitize=fuzzer", *SANITIZE, f"-I{REPO}", str(SOURCE), str(library)]
    subprocess.run([*command, "-o", str(temporary)], check=True, timeout=600, capture_output=True)
    os.replace(temporary, binary)
    return binary


def seed_corpus(folder: Path) -> Path:
    """A fresh corpus folder holding the example and conformance programs of at most
    MAX_LEN bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    programs = [*(REPO / "examples" / "models").glob("*/*.pte")]
    programs += (REPO / "tests" / "conformance" / "programs").glob("*.pte")
    for program in sorted(programs):
        if program.stat().st_size <= MAX_LEN:
            shutil.copyfile(program, folder / f"{program.parent.name}--{program.name}")
    return folder


def _command(binary: Path, artifacts: Path) -> list[str]:
    # No RSS or malloc limit of libFuzzer's: a hostile plan may ask for terabytes, which the
    # loader must refuse as out of memory (ASan returns null, ASAN_OPTIONS), not crash on.
    # A unit is slow at 30 s, a hang at 60 s: generous on a loaded machine (most take < 1 ms).
    artifacts.mkdir(parents=True, exist_ok=True)
    command = [str(binary), f"-max_len={MAX_LEN}", "-rss_limit_mb=0", "-timeout=60"]
    return [*command, "-report_slow_units=30", f"-artifact_prefix={artifacts}/"]


def run(
    binary: Path,
    corpora: Sequence[Path],
    artifacts: Path,
    seed: int,
    runs: int,
    seconds: int,
) -> subprocess.CompletedProcess[str]:
    """Every input of `corpora` once, then `runs` mutated inputs (or `seconds`, whichever
    ends first), reproducible from `seed`; new inputs go to the first corpus folder, and a
    crash, sanitizer report, leak or slow input is written under `artifacts`."""
    command = _command(binary, artifacts)
    command += [f"-seed={seed}", f"-runs={runs}", f"-max_total_time={seconds}"]
    command += ["-print_final_stats=1", *map(str, corpora)]
    return subprocess.run(
        command, capture_output=True, text=True, env=ENVIRONMENT, timeout=seconds + 600, check=False
    )


def merge(binary: Path, into: Path, corpora: Sequence[Path]) -> subprocess.CompletedProcess[str]:
    """Minimise `corpora` into the empty folder `into`: the smallest inputs that together
    reach every edge any of them reaches. Edges, not hit counts (`-use_counters=0`): the
    counts of every loop kept 305 inputs (1.8 MB) of a run's 796, the edges alone 137
    (409 KB) with the same 669 edges; the short run mutates them into counts again."""
    command = [*_command(binary, into.parent / "merge-artifacts"), "-merge=1", "-use_counters=0"]
    command.append(str(into))
    return subprocess.run(
        [*command, *map(str, corpora)],
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
        timeout=7200,
        check=False,
    )


def fuzz(seconds: int, seed: int, work: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The long run: `seconds` of libFuzzer from the seed and kept corpora, its corpus
    growing in `work`/corpus (kept between runs); (its result, its binary)."""
    binary = build()
    corpus = work / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    corpora = [corpus, seed_corpus(work / "seeds"), CORPUS / "libfuzzer"]
    return run(binary, corpora, work / "artifacts", seed, -1, seconds), binary


def keep(binary: Path, work: Path, folder: Path) -> int:
    """Minimise the kept corpus `folder`, the seeds and the long run's corpus in `work` (it
    holds only what the run found beyond the seeds) into `folder`; how many inputs it
    holds then."""
    merged = work / "merged"
    shutil.rmtree(merged, ignore_errors=True)
    merged.mkdir(parents=True)
    folder.mkdir(parents=True, exist_ok=True)
    result = merge(binary, merged, [folder, work / "seeds", work / "corpus"])
    if result.returncode != 0:
        raise RuntimeError(f"libFuzzer's merge failed: {result.stderr[-3000:]}")
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(merged, folder)
    return len(list(folder.iterdir()))
