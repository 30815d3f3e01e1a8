"""rand.out and randn.out, judged by their distribution (Note [Random kernels] in
kernels/portable/util/random.h: one generator per runner, seeded with a fixed number)."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import IntList, KernelCall, Method, Tensor
from tests.kernels.bfloat16_call import run_bfloat16
from tests.kernels.harness import FLOATING, KernelRunner, Out, assert_fails, scalar_type

SHAPE = (64, 64)


def draw(
    kernel: KernelRunner, name: str, dtype: type, shape: tuple[int, ...] = SHAPE
) -> np.ndarray:
    (out,) = kernel.run(f"aten::{name}.out", [IntList(shape), Out(dtype, shape)])
    assert out.shape == shape and out.dtype == dtype
    return out.astype(np.float64)


@pytest.mark.parametrize("dtype", FLOATING)
def test_rand_is_uniform_below_one(kernel: KernelRunner, dtype: type) -> None:
    x = draw(kernel, "rand", dtype)
    # 4096 draws: the mean's standard error is 0.0045, the bounds are > 8 of them.
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.04 and abs(x.std() - np.sqrt(1 / 12)) < 0.03
    assert len(np.unique(x)) > (200 if dtype in (np.float16,) else 2000)


@pytest.mark.parametrize("dtype", FLOATING)
def test_randn_is_standard_normal(kernel: KernelRunner, dtype: type) -> None:
    x = draw(kernel, "randn", dtype)
    assert np.isfinite(x).all()
    assert abs(x.mean()) < 0.1 and abs(x.std() - 1.0) < 0.1
    # About 68% within one standard deviation.
    assert 0.6 < np.mean(np.abs(x) < 1.0) < 0.76


def test_bfloat16(kernel: KernelRunner) -> None:
    for name in ("rand", "randn"):
        (out,) = run_bfloat16(kernel, f"aten::{name}.out", [IntList(SHAPE), Out(np.float32, SHAPE)])
        assert out.shape == SHAPE and np.isfinite(out).all()
        if name == "rand":
            assert out.min() >= 0.0 and out.max() < 1.0


def test_seed_rule_same_per_run_new_per_call(kernel: KernelRunner) -> None:
    """Every run of a program gives the same values; two calls in one run differ."""
    assert np.array_equal(draw(kernel, "rand", np.float32), draw(kernel, "rand", np.float32))
    dtype = scalar_type(np.float64)
    values = (2, 3, IntList((0, 1)), Tensor(dtype, (2, 3)), Tensor(dtype, (2, 3)))
    op = OperatorName.parse("aten::randn.out")
    calls = (KernelCall(op, (2, 3, 3)), KernelCall(op, (2, 4, 4)))
    first, second = kernel.execute(Method("forward", values, (), (3, 4), calls), [])
    assert not np.array_equal(first, second)


def test_zero_sized_dynamic_and_errors(kernel: KernelRunner) -> None:
    assert draw(kernel, "randn", np.float32, (0, 3)).shape == (0, 3)
    (out,) = kernel.run("aten::rand.out", [IntList((3, 2)), Out(np.float64, (8, 8), dynamic=True)])
    assert out.shape == (3, 2)
    for name in ("rand", "randn"):
        op = f"aten::{name}.out"
        assert_fails(kernel, op, [IntList((2, 2)), Out(np.int32, (2, 2))], "dtype")
        assert_fails(kernel, op, [IntList((2, 2)), Out(np.float32, (3,))])
        assert_fails(kernel, op, [IntList((-1,)), Out(np.float32, (1,))], "non-negative")
