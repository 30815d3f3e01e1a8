"""Dynamic shapes: inputs and outputs resized within their planned capacity."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.kernels.harness import In, KernelFailed, KernelRunner, Out
from tests.workspace import REPO

DYNAMIC = REPO / "examples" / "models" / "dynamic"


def test_out_shrinks_within_its_capacity(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (out,) = kernel.run("aten::add.out", [In(x), In(x), 1, Out(np.float32, (4, 8), dynamic=True)])
    np.testing.assert_array_equal(out, x + x)


def test_out_past_its_capacity_fails(kernel: KernelRunner) -> None:
    x = np.ones((4, 4), dtype=np.float32)
    with pytest.raises(KernelFailed, match="aten::add.out"):
        kernel.run("aten::add.out", [In(x), In(x), 1, Out(np.float32, (2, 2), dynamic=True)])


@pytest.mark.parametrize("batch", [1, 3, 8])
def test_dynamic_model_runs_at_every_bound(all_runner: Path, tmp_path: Path, batch: int) -> None:
    x = np.load(DYNAMIC / "in0.npy")
    reference = np.load(DYNAMIC / "out0.npy")  # batch 3
    rows = np.concatenate([x, x, x])[:batch]
    np.save(tmp_path / "x.npy", rows)
    subprocess.run(
        [
            str(all_runner),
            str(DYNAMIC / "dynamic.pte"),
            "--input",
            str(tmp_path / "x.npy"),
            "--output-dir",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
    )
    out = np.load(tmp_path / "output0.npy")
    expected = np.concatenate([reference, reference, reference])[: 2 * batch]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_dynamic_model_refuses_a_batch_past_its_bound(all_runner: Path, tmp_path: Path) -> None:
    x = np.load(DYNAMIC / "in0.npy")
    np.save(tmp_path / "x.npy", np.concatenate([x, x, x, x])[:9])
    result = subprocess.run(
        [str(all_runner), str(DYNAMIC / "dynamic.pte"), "--input", str(tmp_path / "x.npy")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and "wrong shape" in result.stderr
