"""Note [Float to integer copy] (kernels/portable/util/copy_convert.h): a floating value the
integer target cannot hold (NaN, the infinities, huge magnitudes) has a defined result in
the copy kernels, checked on the kernel tests' runner and on one built with UBSan's
float-cast-overflow check, which stops the runner at the first undefined cast."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.kernels.harness import INTEGER, In, KernelRunner, Out, assert_same
from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, build_in_repository

COPY_OP = "dim_order_ops::_to_dim_order_copy.out"
FILL_OP = "aten::fill.Tensor_out"
# GCC's -fsanitize=undefined leaves float-cast-overflow out: it is asked for by name.
SANITIZE = '"-fsanitize=undefined,float-cast-overflow"'
MANIFEST = (
    f"""# Written by tests/kernels/test_float_to_integer_copy.py: the copy kernels under UBSan.
[toolchains.ubsan]
compiler = "c++"
cflags = ["-O1", {SANITIZE}, "-fno-sanitize-recover=all"]
ldflags = [{SANITIZE}]
"""
    + BOTH_LIBRARIES_FROM_BUILD
    + f"""
[targets.float_to_integer_copy]
libraries = ["portable", "prim"]
extra_ops = ["{COPY_OP}", "{FILL_OP}"]
toolchain = "ubsan"
"""
)
TWO_TO_63 = 2.0**63
VALUES = np.array(
    [math.nan, math.inf, -math.inf, 1e30, -1e30, TWO_TO_63, -TWO_TO_63, 2.75, -2.75, 3e9, -1e10],
    dtype=np.float64,
)


def expected(values: np.ndarray, dtype: type) -> np.ndarray:
    """NaN: 0; beyond int64: the target's limits; else truncated and wrapped."""
    info = np.iinfo(dtype)
    result = []
    for value in values.tolist():
        if math.isnan(value):
            result.append(0)
        elif value >= TWO_TO_63:
            result.append(int(info.max))
        elif value < -TWO_TO_63:
            result.append(int(info.min))
        else:
            result.append(int(np.array(math.trunc(value), np.int64).astype(dtype)))
    return np.array(result, dtype=dtype)


@pytest.fixture(scope="module")
def ubsan_runner() -> Path:
    return build_in_repository("float-to-integer-copy.toml", MANIFEST, "float_to_integer_copy")


@pytest.fixture(params=["kernel_tests", "ubsan"])
def runner(request: pytest.FixtureRequest, tmp_path: Path) -> KernelRunner:
    name = "all_runner" if request.param == "kernel_tests" else "ubsan_runner"
    return KernelRunner(request.getfixturevalue(name), tmp_path)


@pytest.mark.parametrize("dtype", INTEGER)
def test_copy_of_values_an_integer_cannot_hold(runner: KernelRunner, dtype: type) -> None:
    (out,) = runner.run(COPY_OP, [In(VALUES), False, None, Out(dtype, VALUES.shape)])
    assert_same(out, expected(VALUES, dtype))
    # Float sources take the same path.
    floats = VALUES.astype(np.float32)
    (out,) = runner.run(COPY_OP, [In(floats), False, None, Out(dtype, VALUES.shape)])
    assert_same(out, expected(floats.astype(np.float64), dtype))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e30])
def test_fill_with_a_value_an_integer_cannot_hold(runner: KernelRunner, value: float) -> None:
    x = np.zeros(3, np.int32)
    (out,) = runner.run(FILL_OP, [In(x), In(np.array(value)), Out(np.int32, x.shape)])
    assert_same(out, np.full(3, expected(np.array([value]), np.int32)[0], np.int32))


def test_values_in_range_are_truncated_as_torch_casts(runner: KernelRunner) -> None:
    x = np.array([-128.9, 127.9, -0.5, 0.5, 41.0], dtype=np.float64)
    (out,) = runner.run(COPY_OP, [In(x), False, None, Out(np.int8, x.shape)])
    assert_same(out, np.array([-128, 127, 0, 0, 41], dtype=np.int8))
