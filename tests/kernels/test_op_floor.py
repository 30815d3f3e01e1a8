from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.kernels.harness import In, KernelFailed, KernelRunner, Out
from tests.kernels.unary_cases import REAL, check_bfloat16, run_unary, sample

OP = "aten::floor.out"


@pytest.mark.parametrize("dtype", REAL)
def test_floor_matches_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    # Integers come back unchanged, in their own dtype.
    np.testing.assert_array_equal(run_unary(kernel, OP, x, dtype), np.floor(x).astype(dtype))


def test_floor_float_edges(kernel: KernelRunner) -> None:
    x = np.array([np.nan, -np.inf, np.inf, -0.5, 0.5, -0.0, 1e20, 2.5, -2.5], dtype=np.float32)
    out = run_unary(kernel, OP, x, np.float32)
    np.testing.assert_array_equal(out, np.floor(x))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(np.floor(x)))


def test_floor_zero_dim_empty_strided_and_wider_out(kernel: KernelRunner) -> None:
    np.testing.assert_array_equal(
        run_unary(kernel, OP, np.array(-1.5, dtype=np.float64), np.float64), np.floor(-1.5)
    )
    assert run_unary(kernel, OP, np.zeros((0, 2), dtype=np.float32), np.float32).shape == (0, 2)
    x = (np.arange(24, dtype=np.float16).reshape(2, 3, 4) - 11.5) / 3
    out = run_unary(kernel, OP, x, np.float32, dim_order=(0, 2, 1))
    np.testing.assert_array_equal(out, np.floor(x).astype(np.float32))
    y = np.array([249, 0, 200], dtype=np.uint8)
    np.testing.assert_array_equal(run_unary(kernel, OP, y, np.int64), y.astype(np.int64))


def test_floor_errors_are_one_line(kernel: KernelRunner) -> None:
    cases = [
        [In(np.array([True])), Out(np.bool_, (1,))],
        [In(np.array([1.5], dtype=np.float32)), Out(np.int64, (1,))],
    ]
    for args in cases:
        with pytest.raises(KernelFailed) as caught:
            kernel.run(OP, args)
        assert OP in str(caught.value) and "\n" not in str(caught.value)


def test_floor_bfloat16(all_runner: Path, tmp_path: Path) -> None:
    check_bfloat16(all_runner, tmp_path, OP, np.floor)
