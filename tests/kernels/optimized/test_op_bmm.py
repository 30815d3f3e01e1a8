from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Runners, small_integers

OP = "aten::bmm.out"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    ("batch", "n", "k", "m"), [(1, 1, 1, 1), (3, 7, 13, 5), (5, 97, 31, 40), (2, 1, 200, 300)]
)
@pytest.mark.parametrize(
    "order",
    # Contiguous, matrices transposed, batch in the middle, and batch innermost (no unit
    # stride in a matrix: the plain loop).
    [None, (0, 2, 1), (1, 0, 2), (1, 2, 0)],
)
def test_bmm_matches_portable(
    runners: Runners, dtype: type, batch: int, n: int, k: int, m: int, order: tuple[int, ...] | None
) -> None:
    rng = np.random.default_rng(batch + n + k + m)
    a, b = small_integers(rng, (batch, n, k), dtype), small_integers(rng, (batch, k, m), dtype)
    args = [In(a, order), In(b, order), Out(dtype, (batch, n, m), order)]
    np.testing.assert_array_equal(runners.same(OP, args), a @ b)


def test_bmm_empty_batch_and_errors(runners: Runners) -> None:
    none = np.zeros((0, 2, 3), np.float32)
    runners.same(OP, [In(none), In(np.zeros((0, 3, 4), np.float32)), Out(np.float32, (0, 2, 4))])
    a = np.ones((2, 3, 4), np.float32)
    assert_fails(
        runners.optimized,
        OP,
        [In(a), In(np.ones((3, 4, 2), np.float32)), Out(np.float32, (2, 3, 2))],
    )
    assert_fails(
        runners.optimized, OP, [In(a), In(a), Out(np.float32, (2, 3, 4))], "batches of matrices"
    )
