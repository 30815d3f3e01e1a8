from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Runners, small_integers

OP = "aten::addmm.out"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    ("n", "k", "m"), [(1, 5, 1), (3, 4, 2), (97, 33, 129), (1, 300, 700), (300, 64, 7)]
)
@pytest.mark.parametrize("self_shape", ["matrix", "row", "column", "one", "scalar"])
@pytest.mark.parametrize(("beta", "alpha"), [(1, 1), (0.5, 2), (0, 1), (2, 0)])
def test_addmm_matches_portable(
    runners: Runners,
    dtype: type,
    n: int,
    k: int,
    m: int,
    self_shape: str,
    beta: float,
    alpha: float,
) -> None:
    rng = np.random.default_rng(n + k + m)
    shape = {"matrix": (n, m), "row": (m,), "column": (n, 1), "one": (1, 1), "scalar": ()}[
        self_shape
    ]
    c = small_integers(rng, shape, dtype)
    a, b = small_integers(rng, (n, k), dtype), small_integers(rng, (k, m), dtype)
    got = runners.same(OP, [In(c), In(a), In(b), beta, alpha, Out(dtype, (n, m))])
    np.testing.assert_array_equal(got, beta * c + alpha * (a @ b))


def test_addmm_transposed_operands_and_out(runners: Runners) -> None:
    rng = np.random.default_rng(5)
    c, a, b = (small_integers(rng, s, np.float32) for s in ((41,), (29, 53), (53, 41)))
    args = [In(c), In(a, (1, 0)), In(b, (1, 0)), 1, 1, Out(np.float32, (29, 41), (1, 0))]
    np.testing.assert_array_equal(runners.same(OP, args), c + a @ b)


@pytest.mark.parametrize("n", [1, 4, 8])
@pytest.mark.parametrize(("beta", "alpha"), [(1, 1), (0.5, 2)])
def test_addmm_streamed_rows_with_bias(runners: Runners, n: int, beta: float, alpha: float) -> None:
    # A Linear over a few rows with a large weight: the streamed product (Note [Streaming
    # GEMM]), its tiles of columns each given their slice of the bias.
    rng = np.random.default_rng(n)
    c = small_integers(rng, (1100,), np.float32)
    a, b = small_integers(rng, (n, 513), np.float32), small_integers(rng, (513, 1100), np.float32)
    got = runners.same(OP, [In(c), In(a), In(b), beta, alpha, Out(np.float32, (n, 1100))])
    np.testing.assert_array_equal(got, beta * c + alpha * (a @ b))


def test_addmm_streamed_rounded_sums_within_tolerance(runners: Runners) -> None:
    rng = np.random.default_rng(4)
    c = rng.standard_normal((300,)).astype(np.float32)
    a = rng.standard_normal((4, 2048)).astype(np.float32)
    b = rng.standard_normal((2048, 300)).astype(np.float32)
    runners.close(OP, [In(c), In(a), In(b), 1.0, 1.0, Out(np.float32, (4, 300))], terms=2048)


def test_addmm_beta_zero_ignores_nan_self(runners: Runners) -> None:
    c = np.full((2, 3), np.nan, np.float32)
    a, b = np.ones((2, 4), np.float32), np.ones((4, 3), np.float32)
    got = runners.same(OP, [In(c), In(a), In(b), 0, 1, Out(np.float32, (2, 3))])
    np.testing.assert_array_equal(got, np.full((2, 3), 4, np.float32))


def test_addmm_rounded_sums_within_tolerance(runners: Runners) -> None:
    rng = np.random.default_rng(9)
    c = rng.standard_normal((70,)).astype(np.float32)
    a, b = (
        rng.standard_normal((33, 500)).astype(np.float32),
        rng.standard_normal((500, 70)).astype(np.float32),
    )
    runners.close(OP, [In(c), In(a), In(b), 0.5, 2.0, Out(np.float32, (33, 70))], terms=500)


def test_addmm_long_falls_back_and_errors_are_portable_s(runners: Runners) -> None:
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    runners.same(OP, [In(np.ones(2, np.int64)), In(a), In(a.T.copy()), 2, 3, Out(np.int64, (2, 2))])
    f = np.ones((2, 3), np.float32)
    for args, text in (
        (
            [In(np.ones(3, np.float32)), In(f), In(f.T.copy()), 1, 1, Out(np.float32, (2, 2))],
            "cannot be broadcast",
        ),
        (
            [In(np.ones(2, np.float32)), In(f), In(f), 1, 1, Out(np.float32, (2, 3))],
            "matrices that can be multiplied",
        ),
        (
            [In(np.ones(2, np.float64)), In(f), In(f.T.copy()), 1, 1, Out(np.float32, (2, 2))],
            "one dtype",
        ),
    ):
        assert_fails(runners.optimized, OP, args, text)
