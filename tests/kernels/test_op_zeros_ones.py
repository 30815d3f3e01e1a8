"""zeros.out and ones.out (one module: the same kernel shape, another constant)."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import ALL, KernelRunner, Out, assert_fails, assert_same

CONSTANTS = {"zeros": 0, "ones": 1}


@pytest.fixture(params=sorted(CONSTANTS))
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", ALL)
def test_constant_fills_every_dtype(name: str, kernel: KernelRunner, dtype: type) -> None:
    (out,) = kernel.run(f"aten::{name}.out", [IntList((2, 3)), Out(dtype, (2, 3))])
    assert_same(out, np.full((2, 3), CONSTANTS[name], dtype=dtype))


def test_constant_zero_dim_empty_channels_last_and_dynamic(name: str, kernel: KernelRunner) -> None:
    op, value = f"aten::{name}.out", CONSTANTS[name]
    (out,) = kernel.run(op, [IntList(()), Out(np.int16, ())])
    assert_same(out, np.array(value, dtype=np.int16))
    (out,) = kernel.run(op, [IntList((0, 4)), Out(np.float32, (0, 4))])
    assert out.shape == (0, 4)
    (out,) = kernel.run(op, [IntList((1, 2, 3, 2)), Out(np.float64, (1, 2, 3, 2), (0, 2, 3, 1))])
    assert_same(out, np.full((1, 2, 3, 2), value, dtype=np.float64))
    # A dynamic out (capacity 4 x 4) takes a smaller size.
    (out,) = kernel.run(op, [IntList((2, 3)), Out(np.float32, (4, 4), dynamic=True)])
    assert_same(out, np.full((2, 3), value, dtype=np.float32))


def test_constant_errors_are_one_line(name: str, kernel: KernelRunner) -> None:
    op = f"aten::{name}.out"
    assert_fails(kernel, op, [IntList((2, 2)), Out(np.float32, (3,))])
    assert_fails(kernel, op, [IntList((-1,)), Out(np.float32, (1,))], "non-negative")
    assert_fails(kernel, op, [IntList((1,) * 17), Out(np.float32, (1,))], "too many dims")
