"""Every example model of the default manifest built, verified and packaged on ExecuTorch's
runtime through the build's own stages: one `runtime = "executorch"` target listing them all
(float, integer, half, bool, dynamic shapes, several methods, the real conv nets, the
Llama-style decoder, recurrent nets, a user's custom operator, PT2E-quantized programs),
dtype-selective, its runner linking the wheel's libexecutorch.so. The target's models come
from the manifest itself, so a model added there is held to this too."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import pytest

from selective_build.codegen.executorch.install import ExecutorchInstall
from tests.executorch_install import executorch_install
from tests.workspace import REPO, copy_repository, doit

__all__ = ["executorch_install"]

TARGET = "every_example"
MODELS = sorted(tomllib.loads((REPO / "selective.toml").read_text())["models"])


@pytest.fixture(scope="module")
def built(executorch_install: ExecutorchInstall, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The target's folder, built with the default manifest plus that one target in a copy
    of the repository (only its tasks run)."""
    workdir = copy_repository(tmp_path_factory.mktemp("executorch_examples"))
    manifest = workdir / "selective.toml"
    manifest.write_text(
        manifest.read_text()
        + f"""
[targets.{TARGET}]
models = {json.dumps(MODELS)}
libraries = ["portable", "prim", "quantized", "my_ops"]
runtime = "executorch"
dtype_selective = true
"""
    )
    result = doit(workdir, "-n", "2", f"target:{TARGET}", timeout=2400)
    assert result.returncode == 0, result.stdout + result.stderr
    return workdir / "build" / TARGET


def test_every_example_model_verifies_on_executorchs_runtime(built: Path) -> None:
    assert len(MODELS) >= 20
    verified = json.loads((built / "verify.json").read_text())["models"]
    assert {model: result["status"] for model, result in verified.items()} == dict.fromkeys(
        MODELS, "ok"
    )


def test_the_runner_is_executorchs_and_the_target_is_packaged(
    built: Path, executorch_install: ExecutorchInstall
) -> None:
    linked = subprocess.run(
        ["ldd", str(built / "runner")], capture_output=True, text=True, check=True
    ).stdout
    assert f"libexecutorch.so => {executorch_install.lib_dir / 'libexecutorch.so'}" in linked
    assert list((built / "package").rglob("*.cmake"))
