from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.binary_cases import quiet, result_type, sample, scalar_result_type
from tests.kernels.harness import ALL, REAL, In, KernelRunner, Out, assert_fails, assert_same

SCALAR_OP = "aten::add.Scalar_out"


@pytest.mark.parametrize("dtype", REAL)
def test_add_broadcasts_like_numpy(kernel: KernelRunner, dtype: type) -> None:
    x = (np.arange(6).reshape(2, 3) % 5).astype(dtype)
    y = np.array([1, 2, 3], dtype=dtype)
    (out,) = kernel.run("aten::add.out", [In(x), In(y), 1, Out(dtype, (2, 3))])
    np.testing.assert_array_equal(out, x + y)


def test_add_alpha_scales_other(kernel: KernelRunner) -> None:
    x = np.array([1.0, 2.0], dtype=np.float32)
    (out,) = kernel.run("aten::add.out", [In(x), In(x), 2.5, Out(np.float32, (2,))])
    np.testing.assert_allclose(out, x + 2.5 * x)


def test_wrong_out_shape_is_one_line(kernel: KernelRunner) -> None:
    x = np.ones((2, 2), dtype=np.float32)
    assert_fails(kernel, "aten::add.out", [In(x), In(x), 1, Out(np.float32, (3,))])


@pytest.mark.parametrize("dtype", ALL)
def test_add_tensor_all_dtypes_wrap(kernel: KernelRunner, dtype: type) -> None:
    x, y = sample(dtype, (2, 3), 1), sample(dtype, (3,), 2)
    out = kernel.run("aten::add.out", [In(x), In(y), 1, Out(dtype, (2, 3))])[0]
    expected = (x | y) if dtype is np.bool_ else quiet(lambda: x + y)
    assert_same(out, expected.astype(dtype))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("other", [3, 2.5, True])
def test_add_scalar_promotes_like_torch(kernel: KernelRunner, dtype: type, other: object) -> None:
    x = sample(dtype, (2, 3), 3)
    common = scalar_result_type(dtype, other)
    if common == np.bool_:
        expected = x | bool(other)
    else:
        expected = quiet(lambda: x.astype(common) + np.array(other).astype(common))
    out = kernel.run(SCALAR_OP, [In(x), other, 1, Out(common, x.shape)])[0]
    assert_same(out, expected.astype(common))


def test_add_scalar_alpha_zero_dim_and_empty(kernel: KernelRunner) -> None:
    x = np.array(4, dtype=np.int32)
    assert_same(kernel.run(SCALAR_OP, [In(x), 5, 3, Out(np.int32, ())])[0], np.array(19, np.int32))
    e = np.zeros((0, 2), dtype=np.float32)
    assert kernel.run(SCALAR_OP, [In(e), 1.5, 1, Out(np.float32, (0, 2))])[0].shape == (0, 2)
    # An int tensor plus a float scalar computes in float32, not float64.
    big = np.array([16777217], dtype=np.int32)
    assert_same(
        kernel.run(SCALAR_OP, [In(big), 0.5, 1, Out(np.float64, (1,))])[0],
        np.array([16777216.0]),
    )
    # An int scalar keeps float16; wrapping for int8.
    h = np.array([1.0, 65504.0], dtype=np.float16)
    assert_same(
        kernel.run(SCALAR_OP, [In(h), 1, 1, Out(np.float16, (2,))])[0],
        np.array([2.0, 65504.0], dtype=np.float16),
    )
    i8 = np.array([127, -128], dtype=np.int8)
    assert_same(
        kernel.run(SCALAR_OP, [In(i8), 1, 1, Out(np.int8, (2,))])[0],
        np.array([-128, -127], dtype=np.int8),
    )


def test_add_scalar_takes_float16_scalar_at_float_precision(kernel: KernelRunner) -> None:
    # torch adds a Python scalar to a half tensor in float, rounding once
    # (1 + 2**-11 is no float16: rounded first, the sum would tie down to 2048).
    x = np.array([2048.0], dtype=np.float16)
    out = kernel.run(SCALAR_OP, [In(x), 1.00048828125, 1, Out(np.float16, (1,))])[0]
    assert_same(out, np.array([2050.0], dtype=np.float16))


def test_add_zero_dim_tensor_promotion(kernel: KernelRunner) -> None:
    x = np.array([1, 2], dtype=np.int8)
    y = np.array(300, dtype=np.int64)
    assert result_type(x, y) == np.int8
    assert_same(
        kernel.run("aten::add.out", [In(x), In(y), 1, Out(np.int8, (2,))])[0],
        np.array([45, 46], dtype=np.int8),
    )


def test_add_scalar_errors(kernel: KernelRunner) -> None:
    x = np.array([1, 2], dtype=np.int32)
    assert_fails(kernel, SCALAR_OP, [In(x), 1.5, 1, Out(np.int32, (2,))], "cast")
    assert_fails(kernel, SCALAR_OP, [In(x), 1, 1.5, Out(np.int32, (2,))], "alpha")
    assert_fails(kernel, SCALAR_OP, [In(x), 1, 1, Out(np.int32, (3,))], "shape")


def test_add_bfloat16(kernel: KernelRunner) -> None:
    x, y = bfloat16_inputs(
        np.array([[1.5, -2.0, 0.3], [100.0, np.inf, np.nan]]), np.array([0.25, 3.0, -7.5])
    )
    (got,) = run_bfloat16(kernel, "aten::add.out", [In(x), In(y), 2, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x + 2 * y)
    (got,) = run_bfloat16(kernel, "aten::add.Scalar_out", [In(x), 0.5, 1, Out(np.float32, (2, 3))])
    assert_bfloat16_close(got, x + np.float32(0.5))
