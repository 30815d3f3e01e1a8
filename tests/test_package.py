"""`package:<target>`: examples/app builds against a target's package with CMake (and with
pkg-config), from a copy of the package elsewhere, and runs a model correctly; one CMake
project finds two targets' packages and links each app its own."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from tests.workspace import REPO, doit, small_workspace

MODEL = "add_mul"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """add_mul's and mlp's packages, built in a workspace, then moved away from its build
    folder."""
    workdir = small_workspace(tmp_path_factory.mktemp("package"))
    result = doit(workdir, "-n", "2", "manifest=small.toml", f"target:{MODEL}", "target:mlp")
    assert result.returncode == 0, result.stdout + result.stderr
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    for target in (MODEL, "mlp"):
        shutil.copytree(workdir / "build" / target / "package", elsewhere / target)
    return {target: elsewhere / target for target in (MODEL, "mlp")}


@pytest.fixture(scope="module")
def package(packages: dict[str, Path]) -> Path:
    return packages[MODEL]


def app_run(
    app: Path, tmp_path: Path, model: str = MODEL, emulator: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """The app run on an example model's inputs (through `emulator`, a command prefix)."""
    folder = REPO / "examples" / "models" / model
    inputs = []
    for path in sorted(folder.glob("in*.npy")):
        raw = tmp_path / f"{model}-{path.stem}.bin"
        raw.write_bytes(np.load(path).tobytes())
        inputs.append(str(raw))
    return subprocess.run(
        [*emulator, str(app), str(folder / f"{model}.pte"), *inputs],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_app(
    app: Path, tmp_path: Path, model: str = MODEL, emulator: Sequence[str] = ()
) -> list[np.ndarray]:
    """Run the app on an example model's inputs: its outputs, parsed."""
    result = app_run(app, tmp_path, model, emulator)
    assert result.returncode == 0, result.stderr
    outputs: list[list[float]] = []
    for line in result.stdout.splitlines():
        if line.startswith("output "):
            assert line.split(": ")[1].startswith("Float ")
            outputs.append([])
        else:
            outputs[-1].append(float(line))
    return [np.array(values, dtype=np.float32) for values in outputs]


def check_outputs(outputs: list[np.ndarray], model: str = MODEL) -> None:
    expected = np.load(REPO / "examples" / "models" / model / "out0.npy")
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
        "lib/libselective_add_mul.a",
        "lib/cmake/selective_add_mul/selective_add_mulConfig.cmake",
        "lib/cmake/selective_add_mul/selective_add_mulConfigVersion.cmake",
        "lib/pkgconfig/selective_add_mul.pc",
    } <= files
    assert not any(f.startswith("include/runtime/runner/") for f in files)  # the runner's own
    assert not any(f.endswith((".cpp", ".o")) for f in files)
    text = (package / "lib/cmake/selective_add_mul/selective_add_mulConfig.cmake").read_text()
    assert str(package.parent) not in text and 'selective_add_mul_TARGET "add_mul"' in text


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
        ["pkg-config", "--cflags", "--libs", "selective_add_mul"],
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


TWO_PACKAGES = """
cmake_minimum_required(VERSION 3.16)
project(two_targets CXX)
find_package(selective_add_mul 0.1 REQUIRED)
find_package(selective_mlp 0.1 REQUIRED)
add_executable(app_add_mul main.cpp)
target_link_libraries(app_add_mul PRIVATE selective::add_mul)
add_executable(app_mlp main.cpp)
target_link_libraries(app_mlp PRIVATE selective::mlp)
"""


def test_two_targets_packages_in_one_cmake_project(
    packages: dict[str, Path], tmp_path: Path
) -> None:
    """Each app links its own target's runtime: each runs its model, and add_mul's app has
    none of mlp's kernels (before each package had its own name, the second find_package
    silently gave the first target's library)."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(TWO_PACKAGES)
    shutil.copy2(REPO / "examples" / "app" / "main.cpp", project / "main.cpp")
    build = tmp_path / "build"
    prefixes = ";".join(str(packages[target]) for target in (MODEL, "mlp"))
    for command in (
        ["cmake", "-S", str(project), "-B", str(build), f"-DCMAKE_PREFIX_PATH={prefixes}"],
        ["cmake", "--build", str(build)],
    ):
        result = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
    check_outputs(run_app(build / "app_add_mul", tmp_path), MODEL)
    check_outputs(run_app(build / "app_mlp", tmp_path, "mlp"), "mlp")
    refused = app_run(build / "app_add_mul", tmp_path, "mlp")
    assert refused.returncode == 1 and "is not in this runner" in refused.stderr, refused.stderr
