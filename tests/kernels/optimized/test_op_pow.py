from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches
from tests.kernels.optimized.unary_cases import calls

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::pow.Tensor_Scalar_out"

# The exponents computed without std::pow (2 and 0.5: RMSNorm and norms), as integers too,
# and ones that take std::pow (1.7, 0, a large one) or portable's template (a bool).
EXPONENTS = [2, 2.0, 0.5, -0.5, -1, 3, -2.0, 1.7, 0, 40.0, True]


@pytest.mark.parametrize("exponent", EXPONENTS, ids=repr)
def test_pow_scalar_matches_portable_to_the_bit(
    optimized: KernelRunner, kernel: KernelRunner, exponent: object
) -> None:
    # The same expressions as portable's (x * x, sqrt, 1 / x..., or std::pow), each
    # operation correctly rounded: the same bits, NaN and infinities included.
    for args in calls(exponent):
        (got,) = assert_matches(optimized, kernel, OP, args)
        assert got.tobytes() == kernel.run(OP, args)[0].tobytes(), (exponent, args)


def test_pow_scalar_square_and_root_values(optimized: KernelRunner) -> None:
    x = np.array([-3.0, -0.0, 0.0, 0.25, 4.0, np.inf, -np.inf, np.nan], np.float32)
    (square,) = optimized.run(OP, [In(x), 2, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(square, x * x)
    (root,) = optimized.run(OP, [In(x), 0.5, Out(np.float32, x.shape)])
    with np.errstate(invalid="ignore"):
        assert root.tobytes() == np.sqrt(x).tobytes()  # -0 stays -0, as torch's sqrt


def test_pow_scalar_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    x = np.ones((2, 3), dtype=np.float32)
    assert_both_fail(optimized, kernel, OP, [In(x), 2, Out(np.float32, (3, 2))], "")
