"""`runtime = "executorch"` targets end to end: examples/executorch_app/selective.toml builds
(the app's kernels with XNNPACK, and a dtype-selective target of float, quantized and
XNNPACK-lowered programs), every model verifies, the runner links ExecuTorch's shared runtime,
and the app written against ExecuTorch's Module builds with CMake against a target's package
(moved away from its build folder) and runs models, delegated ones included."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.executorch.install import ExecutorchInstall
from tests.executorch_install import executorch_install
from tests.workspace import REPO, copy_repository, doit

__all__ = ["executorch_install"]

MANIFEST = "examples/executorch_app/selective.toml"
MODELS = REPO / "examples" / "models"


@pytest.fixture(scope="module")
def built(executorch_install: ExecutorchInstall, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The manifest's build folder, in a copy of the repository."""
    workdir = copy_repository(tmp_path_factory.mktemp("executorch_app"))
    result = doit(workdir, "-n", "2", f"manifest={MANIFEST}", "build", timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    return workdir / "examples" / "executorch_app" / "build"


@pytest.mark.parametrize(
    ("target", "models"),
    [
        ("app", ["add_mul", "xnn_partial"]),
        ("vision", ["conv", "quant_conv", "xnn_conv", "xnn_dynamic_linear", "xnn_quant_conv"]),
    ],
)
def test_every_model_verifies(built: Path, target: str, models: list[str]) -> None:
    verified = json.loads((built / target / "verify.json").read_text())["models"]
    assert {model: result["status"] for model, result in verified.items()} == dict.fromkeys(
        models, "ok"
    )


def test_the_runner_links_executorchs_runtime_and_the_backend_its_programs_call(
    built: Path, executorch_install: ExecutorchInstall
) -> None:
    linked = subprocess.run(
        ["ldd", str(built / "app" / "runner")], capture_output=True, text=True, check=True
    ).stdout
    lib = executorch_install.lib_dir
    assert f"libexecutorch.so => {lib / 'libexecutorch.so'}" in linked
    assert (
        f"libexecutorch_backend_xnnpack.so => {lib / 'libexecutorch_backend_xnnpack.so'}" in linked
    )


def test_the_dtype_selective_target_keeps_only_its_dtypes(built: Path) -> None:
    header = (built / "vision" / "gen" / "ops" / "portable" / "op_convolution").glob("*.h")
    text = "".join(path.read_text() for path in header)
    assert "Float" in text and "Double" not in text


def test_the_package_holds_the_library_and_its_cmake_config(built: Path) -> None:
    package = built / "app" / "package"
    files = {str(p.relative_to(package)) for p in package.rglob("*") if p.is_file()}
    assert files == {
        "lib/libselective_kernels.a",
        "lib/cmake/SelectiveKernels/SelectiveKernelsConfig.cmake",
        "lib/cmake/SelectiveKernels/SelectiveKernelsConfigVersion.cmake",
    }
    config = (package / "lib/cmake/SelectiveKernels/SelectiveKernelsConfig.cmake").read_text()
    assert "add_library(SelectiveKernels::app INTERFACE IMPORTED)" in config
    assert "executorch::backend_xnnpack" in config  # the backend xnn_partial calls
    assert str(package) not in config


def run_app(app: Path, model: str, tmp_path: Path) -> list[np.ndarray]:
    """The app's outputs on a model's reference inputs (raw bytes, as it reads them)."""
    folder = MODELS / model
    inputs = []
    for index, path in enumerate(sorted(folder.glob("in*.npy"))):
        raw = tmp_path / f"{model}_in{index}.bin"
        raw.write_bytes(np.load(path).tobytes())
        inputs.append(str(raw))
    result = subprocess.run(
        [str(app), str(folder / f"{model}.pte"), *inputs],
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


def test_the_executorch_app_builds_with_cmake_and_runs_models(
    built: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    package = tmp_path_factory.mktemp("elsewhere") / "package"
    shutil.copytree(built / "app" / "package", package)
    build = tmp_path / "build"
    configure = [
        "cmake",
        "-S",
        str(REPO / "examples" / "executorch_app"),
        "-B",
        str(build),
        f"-DCMAKE_PREFIX_PATH={package}",
        "-DSELECTIVE_TARGET=app",
    ]
    for command in (configure, ["cmake", "--build", str(build)]):
        result = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
    app = build / "executorch_app"
    for model in ("add_mul", "xnn_partial"):
        outputs = run_app(app, model, tmp_path)
        expected = [np.load(p) for p in sorted((MODELS / model).glob("out*.npy"))]
        assert len(outputs) == len(expected)
        for got, want in zip(outputs, expected, strict=True):
            np.testing.assert_allclose(got, want.reshape(-1), rtol=1e-6, atol=1e-6)


def test_the_size_report_prices_what_the_target_adds_apart_from_executorch(built: Path) -> None:
    report = json.loads((built / "app" / "size.json").read_text())
    assert [part["name"] for part in report["prebuilt"]] == [
        "libexecutorch.so",
        "libexecutorch_backend_xnnpack.so",
        "libexecutorch_threadpool.so",
    ]
    alternative = report["non_selective"]
    assert alternative["name"] == "libexecutorch_kernels_optimized.so"
    # The five kernels and their registration: a small part of the runner, and of the
    # all-operators library an app would link without selective build.
    assert 0 < alternative["added"] < report["file"]
    assert alternative["added"] * 50 < alternative["code_and_data"]
    buckets = {row["name"] for row in report["buckets"]}
    assert {"adapter", "registration", "kernel:portable/op_cumsum"} <= buckets
    assert "## Prebuilt libraries (not selective)" in (built / "app" / "size.md").read_text()
