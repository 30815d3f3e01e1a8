"""A real cross target: aarch64 runners built with Debian's g++-aarch64-linux-gnu, verified
under qemu-user through the toolchain's emulator, and one line (no traceback) for a runner
with no emulator. `.ci/run` installs both packages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.workspace import all_verified, copy_repository, doit

NEEDED = ("aarch64-linux-gnu-g++", "qemu-aarch64")

# The shipped example's toolchain without its emulator and without the page-size flag.
BARE = """
[toolchains.arm64]
compiler = "aarch64-linux-gnu-g++"
strip = "aarch64-linux-gnu-strip"
ar = "aarch64-linux-gnu-ar"

[models.add_mul]
path = "models/add_mul/add_mul.pte"
inputs = ["models/add_mul/in0.npy", "models/add_mul/in1.npy"]
outputs = ["models/add_mul/out0.npy"]

[targets.add_mul_arm64]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
toolchain = "arm64"
"""


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    missing = [program for program in NEEDED if shutil.which(program) is None]
    assert not missing, f"install g++-aarch64-linux-gnu and qemu-user (.ci/run does): {missing}"
    return copy_repository(tmp_path)


def test_the_aarch64_example_verifies_under_qemu(workdir: Path) -> None:
    result = doit(workdir, "-n", "2", "manifest=examples/aarch64.toml", "build", timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    runner = workdir / "examples" / "build" / "mlp_arm64" / "runner"
    assert runner.read_bytes()[18:20] == (183).to_bytes(2, "little")  # EM_AARCH64
    assert any(
        line.startswith("mlp_arm64: ") and all_verified(line, 2)
        for line in result.stdout.splitlines()
    ), result.stdout
    assert "segment alignment" not in result.stdout  # its ldflags set 4 KiB pages


def test_a_foreign_runner_without_emulator_is_not_verified(workdir: Path) -> None:
    (workdir / "examples" / "bare.toml").write_text(BARE)
    result = doit(workdir, "-n", "2", "manifest=examples/bare.toml", "build", timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    reason = "add_mul_arm64: not verified: runner is aarch64, no emulator for toolchain arm64"
    assert reason in lines, result.stdout
    assert any(
        line.startswith("add_mul_arm64: ") and line.endswith(", not verified") for line in lines
    ), result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    # GNU ld's 64 KiB pages make most of the file padding: the report says which flag helps.
    note = [line for line in lines if "segment alignment" in line]
    assert note and "-Wl,-z,max-page-size=4096" in note[0], result.stdout
