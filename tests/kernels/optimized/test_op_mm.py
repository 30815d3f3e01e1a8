from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Runners, small_integers

OP = "aten::mm.out"
EVERY_LEVEL = True  # conftest.py: the GEMM's AVX-512, AVX2 and baseline microkernels

# Odd sizes, sizes off the SIMD width and Eigen's register blocks, one row (a batch of one),
# one column, wider than tall (tiles of columns) and taller than wide (tiles of rows),
# several tiles with a short last one; a few rows by a large b, streamed (Note [Streaming
# GEMM]: two tiles, the last short and off the SIMD width, k not a multiple of 4; at the
# row limit; one row past it, Eigen's GEMM).
SHAPES = [(1, 1, 1), (7, 13, 5), (97, 33, 129), (1, 300, 700), (300, 200, 1), (250, 70, 33)]
SHAPES += [(4, 513, 1100), (8, 300, 1000), (9, 300, 1000)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("n", "k", "m"), SHAPES)
@pytest.mark.parametrize(
    ("a_order", "b_order", "out_order"),
    [(None, None, None), ((1, 0), None, None), (None, (1, 0), (1, 0)), ((1, 0), (1, 0), None)],
)
def test_mm_matches_portable(
    runners: Runners,
    dtype: type,
    n: int,
    k: int,
    m: int,
    a_order: tuple[int, ...] | None,
    b_order: tuple[int, ...] | None,
    out_order: tuple[int, ...] | None,
) -> None:
    rng = np.random.default_rng(n * 7 + k * 3 + m)
    a, b = small_integers(rng, (n, k), dtype), small_integers(rng, (k, m), dtype)
    args = [In(a, a_order), In(b, b_order), Out(dtype, (n, m), out_order)]
    np.testing.assert_array_equal(runners.same(OP, args), a @ b)


def test_mm_rounded_sums_within_tolerance(runners: Runners) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((130, 257)).astype(np.float32)
    b = rng.standard_normal((257, 67)).astype(np.float32)
    runners.close(OP, [In(a), In(b), Out(np.float32, (130, 67))], terms=257)


def test_mm_empty_large_and_special_values(runners: Runners) -> None:
    empty = np.zeros((4, 0), np.float32)
    got = runners.same(OP, [In(empty), In(np.zeros((0, 5), np.float32)), Out(np.float32, (4, 5))])
    np.testing.assert_array_equal(got, np.zeros((4, 5), np.float32))
    runners.same(
        OP,
        [
            In(np.zeros((0, 3), np.float32)),
            In(np.ones((3, 2), np.float32)),
            Out(np.float32, (0, 2)),
        ],
    )
    big = np.full((3, 4), 1e38, np.float32)  # sums of four overflow to inf
    big[1, 2] = np.nan
    got = runners.same(OP, [In(big), In(np.ones((4, 2), np.float32)), Out(np.float32, (3, 2))])
    assert np.isinf(got[0]).all() and np.isnan(got[1]).all()


def test_mm_integers_fall_back_to_portable(runners: Runners) -> None:
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    runners.same(OP, [In(a), In(a.T.copy()), Out(np.int64, (3, 3))])


def test_mm_errors_are_portable_s(runners: Runners) -> None:
    a = np.ones((2, 3), dtype=np.float32)
    for args, text in (
        ([In(a), In(a), Out(np.float32, (2, 3))], "self and mat2 must be matrices"),
        ([In(a), In(a.T.astype(np.float64)), Out(np.float32, (2, 2))], "must have one dtype"),
        ([In(a), In(a.T.copy()), Out(np.float32, (3, 3))], ""),
    ):
        assert_fails(runners.optimized, OP, args, text)
