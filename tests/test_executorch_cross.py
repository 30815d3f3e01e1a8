"""A cross target on ExecuTorch's runtime: aarch64 objects against the aarch64 wheel of the
supported release (what .ci/run unpacks), XNNPACK included, verified under qemu-user
through the toolchain's emulator; the host's install for that toolchain is one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from selective_build.codegen.executorch.install import ExecutorchInstall
from tests.executorch_install import executorch_install, require_aarch64_executorch
from tests.workspace import all_verified, copy_repository, doit

__all__ = ["executorch_install"]

NEEDED = ("aarch64-linux-gnu-g++", "qemu-aarch64")

MANIFEST = """
[toolchains.arm64]
compiler = "aarch64-linux-gnu-g++"
strip = "aarch64-linux-gnu-strip"
ar = "aarch64-linux-gnu-ar"
ldflags = ["-Wl,-z,max-page-size=4096"]
emulator = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
{install}
[models.add_mul]
path = "models/add_mul/add_mul.pte"
inputs = ["models/add_mul/in0.npy", "models/add_mul/in1.npy"]
outputs = ["models/add_mul/out0.npy"]

[models.xnn_partial]
path = "models/xnn_partial/xnn_partial.pte"
inputs = ["models/xnn_partial/in0.npy"]
outputs = ["models/xnn_partial/out0.npy", "models/xnn_partial/out1.npy"]

[targets.et_arm64]
models = ["add_mul", "xnn_partial"]
libraries = ["portable", "prim"]
runtime = "executorch"
toolchain = "arm64"
"""


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    missing = [program for program in NEEDED if shutil.which(program) is None]
    assert not missing, f"install g++-aarch64-linux-gnu and qemu-user (.ci/run does): {missing}"
    return copy_repository(tmp_path)


def test_an_aarch64_target_on_the_aarch64_wheel_verifies_under_qemu(workdir: Path) -> None:
    install = require_aarch64_executorch()
    manifest = workdir / "examples" / "et_arm64.toml"
    manifest.write_text(MANIFEST.format(install=f'executorch = "{install}"\n'))
    result = doit(workdir, "-n", "2", "manifest=examples/et_arm64.toml", "build", timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    runner = workdir / "examples" / "build" / "et_arm64" / "runner"
    assert runner.read_bytes()[18:20] == (183).to_bytes(2, "little")  # EM_AARCH64
    assert any(
        line.startswith("et_arm64: ") and all_verified(line, 2)
        for line in result.stdout.splitlines()
    ), result.stdout


def test_the_hosts_install_for_an_aarch64_toolchain_is_one_line(
    workdir: Path, executorch_install: ExecutorchInstall
) -> None:
    (workdir / "examples" / "et_arm64.toml").write_text(MANIFEST.format(install=""))
    result = doit(workdir, "manifest=examples/et_arm64.toml", "build", timeout=600)
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        f"error: target et_arm64: the ExecuTorch at {executorch_install.root} is built for "
        "x86_64, the target's toolchain builds for aarch64: name an install built for aarch64 "
        "as toolchains.arm64.executorch (for aarch64, the wheel of the same release: pip "
        "download --platform manylinux_2_28_aarch64 --only-binary=:all: --no-deps "
        "executorch==1.5.1, unpacked)"
    ]
