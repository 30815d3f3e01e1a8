"""Several methods per program, chosen with --method."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

from tests.workspace import REPO

MODEL = REPO / "examples" / "models" / "multi_method"


def run(runner: Path, out: Path, method: str, inputs: list[Path]) -> np.ndarray:
    command = [
        str(runner),
        str(MODEL / "multi_method.pte"),
        "--method",
        method,
        "--output-dir",
        str(out),
    ]
    for path in inputs:
        command += ["--input", str(path)]
    subprocess.run(command, check=True, capture_output=True)
    return np.load(out / "output0.npy")


def test_both_methods_of_one_program(all_runner: Path, tmp_path: Path) -> None:
    forward = run(all_runner, tmp_path, "forward", [MODEL / "in0.npy"])
    np.testing.assert_allclose(forward, np.load(MODEL / "out0.npy"), rtol=1e-5, atol=1e-6)
    twice = run(all_runner, tmp_path, "twice", [MODEL / "twice" / "in0.npy"])
    np.testing.assert_array_equal(twice, np.load(MODEL / "twice" / "out0.npy"))


def test_unknown_method_is_one_line(all_runner: Path) -> None:
    result = subprocess.run(
        [str(all_runner), str(MODEL / "multi_method.pte"), "--method", "thrice"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and "no method of that name" in result.stderr
    assert result.stderr.count("\n") == 1
