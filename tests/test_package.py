"""`package:<target>`: examples/app builds against a target's package with CMake (and with
pkg-config), from a copy of the package elsewhere, and runs a model correctly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.workspace import REPO, doit, small_workspace

MODEL = "add_mul"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """add_mul's package, built in a workspace, then moved away from its build folder."""
    workdir = small_workspace(tmp_path_factory.mktemp("package"))
    result = doit(workdir, "-n", "2", "manifest=small.toml", f"target:{MODEL}")
    assert result.returncode == 0, result.stdout + result.stderr
    moved = tmp_path_factory.mktemp("elsewhere") / "package"
    shutil.copytree(workdir / "build" / MODEL / "package", moved)
    return moved


def run_app(app: Path, tmp_path: Path) -> list[np.ndarray]:
    """Run the app on add_mul's inputs: its outputs, parsed."""
    folder = REPO / "examples" / "models" / MODEL
    inputs = []
    for index in range(2):
        raw = tmp_path / f"in{index}.bin"
        raw.write_bytes(np.load(folder / f"in{index}.npy").tobytes())
        inputs.append(str(raw))
    result = subprocess.run(
        [str(app), str(folder / f"{MODEL}.pte"), *inputs],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    outputs: list[list[float]] = []
    for line in result.stdout.splitlines():
        if line.startswith("output "):
            assert line.split(": ")[1].startswith("Float ")
            outputs.append([])
        else:
            outputs[-1].append(float(line))
    return [np.array(values, dtype=np.float32) for values in outputs]


def check_outputs(outputs: list[np.ndarray]) -> None:
    expected = np.load(REPO / "examples" / "models" / MODEL / "out0.npy")
    assert len(outputs) == 1
    np.testing.assert_allclose(outputs[0], expected.reshape(-1), rtol=1e-6, atol=1e-6)


def test_package_holds_headers_library_cmake_and_pkg_config(package: Path) -> None:
    files = {str(p.relative_to(package)) for p in package.rglob("*") if p.is_file()}
    assert {
        "include/runtime/executor/method.h",
        "include/runtime/loader/program.h",
        "include/runtime/kernel/kernel.h",
        "include/selective/selected_registry_size.h",
        "include/selective/selected_op_variants.h",
        "lib/libselective_runtime.a",
        "lib/cmake/SelectiveRuntime/SelectiveRuntimeConfig.cmake",
        "lib/cmake/SelectiveRuntime/SelectiveRuntimeConfigVersion.cmake",
        "lib/pkgconfig/selective-runtime.pc",
    } <= files
    assert not any(f.startswith("include/runtime/runner/") for f in files)  # the runner's own
    assert not any(f.endswith((".cpp", ".o")) for f in files)
    text = (package / "lib/cmake/SelectiveRuntime/SelectiveRuntimeConfig.cmake").read_text()
    assert str(package.parent) not in text and 'SelectiveRuntime_TARGET "add_mul"' in text


def test_app_builds_with_cmake_and_runs_the_model(package: Path, tmp_path: Path) -> None:
    build = tmp_path / "app"
    configure = subprocess.run(
        [
            "cmake",
            "-S",
            str(REPO / "examples" / "app"),
            "-B",
            str(build),
            f"-DCMAKE_PREFIX_PATH={package}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    compiled = subprocess.run(
        ["cmake", "--build", str(build)], capture_output=True, text=True, timeout=600, check=False
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    check_outputs(run_app(build / "app", tmp_path))


def test_app_builds_with_pkg_config(package: Path, tmp_path: Path) -> None:
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "selective-runtime"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"PKG_CONFIG_PATH": str(package / "lib" / "pkgconfig"), "PATH": "/usr/bin:/bin"},
    ).stdout.split()
    app = tmp_path / "app"
    source = REPO / "examples" / "app" / "main.cpp"
    command = ["c++", str(source), "-o", str(app), *flags]
    compiled = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    check_outputs(run_app(app, tmp_path))
