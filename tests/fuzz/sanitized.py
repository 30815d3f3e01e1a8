"""The runner the fuzz harness runs: every operator of every library, built with
AddressSanitizer and UBSan the way tests/runtime/test_hostile_programs.py builds its own
(a manifest toolchain), so a fault in any kernel, not only the examples', is reported."""

from __future__ import annotations

import os
from pathlib import Path

from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, build_in_repository

SANITIZE = '"-fsanitize=address,undefined"'
# The toolchain's flags, as the persistent driver (tests/fuzz/persistent.py) compiles them.
SANITIZE_FLAGS = (
    "-O1",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-sanitize=vptr",
)
MANIFEST = (
    f"""# Written by tests/fuzz/sanitized.py: every kernel, sanitized, for the fuzz harness.
[toolchains.sanitize]
compiler = "c++"
cflags = ["-O1", {SANITIZE}, "-fno-sanitize-recover=all", "-fno-sanitize=vptr"]
ldflags = [{SANITIZE}]
"""
    + BOTH_LIBRARIES_FROM_BUILD
    + """
[targets.fuzz_sanitized]
libraries = ["portable", "prim"]
include_all_operators = true
toolchain = "sanitize"
"""
)

# A hostile file may ask for terabytes: ASan then warns and returns null, as malloc would.
# It zero-fills what it does hand out, unlike the lazily mapped calloc of an ordinary
# build: a 2 KB program planning 16 GiB took 10 s and 2 GB there (10 ms and 2 MB without
# ASan). So allocations over 256 MiB, far beyond what the examples plan, fail as out of
# memory. Leak checks stay on: a leak on an error path is a finding.
ASAN_OPTIONS = "allocator_may_return_null=1:max_allocation_size_mb=256:detect_leaks=1"
ENVIRONMENT = {**os.environ, "ASAN_OPTIONS": ASAN_OPTIONS, "UBSAN_OPTIONS": "print_stacktrace=1"}
ALLOCATION_WARNING = "WARNING: AddressSanitizer failed to allocate"


def sanitized_runner() -> Path:
    """Builds (incrementally, in the repository's build/) and returns the runner."""
    return build_in_repository("fuzz-sanitized.toml", MANIFEST, "fuzz_sanitized")
