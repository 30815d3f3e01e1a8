"""A DelegateCall names the backend this runtime lacks."""

from __future__ import annotations

import subprocess
from pathlib import Path

from selective_build.codegen.pte.writer import DelegateCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.workspace import REPO


def test_xnnpack_model_names_its_backend(all_runner: Path) -> None:
    model = REPO / "examples" / "models" / "xnnpack" / "xnnpack.pte"
    result = subprocess.run(
        [str(all_runner), str(model), "--input", str(model.parent / "in0.npy")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and "backend XnnpackBackend is not available" in result.stderr


def test_written_delegate_call_names_its_backend(all_runner: Path, tmp_path: Path) -> None:
    values = (Tensor(ScalarType.Float, (2,)), Tensor(ScalarType.Float, (2,)))
    method = Method(
        "forward", values, (0,), (1,), (DelegateCall(0, (0, 1)),), delegates=("MyBackend",)
    )
    save_program([method], tmp_path / "p.pte")
    result = subprocess.run(
        [str(all_runner), str(tmp_path / "p.pte")], capture_output=True, text=True, check=False
    )
    assert result.returncode != 0 and "backend MyBackend is not available" in result.stderr
