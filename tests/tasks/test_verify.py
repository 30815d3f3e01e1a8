"""run_model names an input or reference the runner cannot carry before running anything."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codegen.manifest import Model
from tasks.verify import run_model


@pytest.mark.parametrize("kind", ["input", "reference"])
def test_a_complex128_file_is_named_before_the_runner_runs(tmp_path: Path, kind: str) -> None:
    plain, wide = tmp_path / "plain.npy", tmp_path / "wide.npy"
    np.save(plain, np.zeros(2, np.float32))
    np.save(wide, np.zeros(2, np.complex128))
    inputs, outputs = ((wide,), (plain,)) if kind == "input" else ((plain,), (wide,))
    model = Model("m", tmp_path / "m.pte", "forward", inputs, outputs)
    runner = tmp_path / "no-runner"  # never started: running it would fail differently
    problem = run_model(runner, model, tmp_path / "out")
    assert problem == (
        f"{kind} {wide}: complex128 arrays are not supported by the runner (bool, uint8, "
        "int8, int16, int32, int64, float16, float32, float64 and complex64 are)"
    )
