"""Dynamic shapes: inputs and outputs resized within their planned capacity."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelFailed, KernelRunner, Out, assert_fails
from tests.workspace import REPO

DYNAMIC = REPO / "examples" / "models" / "dynamic"


def test_out_shrinks_within_its_capacity(kernel: KernelRunner) -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (out,) = kernel.run("aten::add.out", [In(x), In(x), 1, Out(np.float32, (4, 8), dynamic=True)])
    np.testing.assert_array_equal(out, x + x)


def test_out_past_its_capacity_fails(kernel: KernelRunner) -> None:
    x = np.ones((4, 4), dtype=np.float32)
    assert_fails(kernel, "aten::add.out", [In(x), In(x), 1, Out(np.float32, (2, 2), dynamic=True)])


@pytest.mark.parametrize("batch", [1, 3, 8])
def test_dynamic_model_runs_at_every_bound(kernel: KernelRunner, batch: int) -> None:
    x = np.load(DYNAMIC / "in0.npy")
    reference = np.load(DYNAMIC / "out0.npy")  # batch 3
    rows = np.concatenate([x, x, x])[:batch]
    (out,) = kernel.run_file(DYNAMIC / "dynamic.pte", [rows], 1)
    expected = np.concatenate([reference, reference, reference])[: 2 * batch]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_dynamic_model_refuses_a_batch_past_its_bound(kernel: KernelRunner) -> None:
    x = np.load(DYNAMIC / "in0.npy")
    with pytest.raises(KernelFailed, match="wrong shape"):
        kernel.run_file(DYNAMIC / "dynamic.pte", [np.concatenate([x, x, x, x])[:9]], 1)
