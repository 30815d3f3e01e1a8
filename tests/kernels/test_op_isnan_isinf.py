from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16
from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.unary_cases import ALL, FLOATING, run_unary, sample

# One module for isnan and isinf (the same kernel shape, another test of the value).
PREDICATES: dict[str, Callable[[np.ndarray], np.ndarray]] = {"isnan": np.isnan, "isinf": np.isinf}
SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -3.0, 6e4])


@pytest.fixture(params=sorted(PREDICATES))
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", ALL)
def test_matches_numpy(name: str, kernel: KernelRunner, dtype: type) -> None:
    x = sample(dtype, (3, 4))
    if dtype in FLOATING:
        x = np.concatenate([x.ravel(), SPECIALS.astype(dtype)])
    out = run_unary(kernel, f"aten::{name}.out", x, np.bool_)
    np.testing.assert_array_equal(out, PREDICATES[name](x))


def test_zero_dim_empty_and_strided(name: str, kernel: KernelRunner) -> None:
    op, predicate = f"aten::{name}.out", PREDICATES[name]
    x = np.array(np.inf if name == "isinf" else np.nan, dtype=np.float64)
    assert run_unary(kernel, op, x, np.bool_).item() is True
    assert run_unary(kernel, op, np.zeros((0, 3), dtype=np.float32), np.bool_).shape == (0, 3)
    y = np.resize(SPECIALS, 24).reshape(2, 3, 4)
    np.testing.assert_array_equal(
        run_unary(kernel, op, y, np.bool_, dim_order=(2, 0, 1)), predicate(y)
    )


def test_bfloat16(name: str, kernel: KernelRunner) -> None:
    x = SPECIALS.astype(np.float32)
    (out,) = run_bfloat16(kernel, f"aten::{name}.out", [In(x), Out(np.bool_, x.shape)])
    np.testing.assert_array_equal(out, PREDICATES[name](x))


def test_errors_are_one_line(name: str, kernel: KernelRunner) -> None:
    op = f"aten::{name}.out"
    x = np.array([1.0, np.nan], dtype=np.float32)
    assert_fails(kernel, op, [In(x), Out(np.float32, (2,))], "out must be Bool")
    assert_fails(kernel, op, [In(x), Out(np.bool_, (3,))])
