from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import bfloat16_inputs, run_bfloat16
from tests.kernels.harness import REAL, In, KernelRunner, Out, assert_fails
from tests.kernels.pool_cases import pooled_size

OP = "aten::max_pool2d_with_indices.out"


def _reference(
    x: np.ndarray,
    k: tuple[int, int],
    s: tuple[int, int],
    p: tuple[int, int],
    d: tuple[int, int],
    ceil: bool,
) -> tuple[np.ndarray, np.ndarray]:
    *lead, h, w = x.shape
    oh, ow = (pooled_size(n, k[i], s[i], p[i], ceil, d[i]) for i, n in enumerate((h, w)))
    flat = x.reshape(-1, h, w)
    values = np.zeros((flat.shape[0], oh, ow), x.dtype)
    index = np.zeros((flat.shape[0], oh, ow), np.int64)
    for b in range(flat.shape[0]):
        for i in range(oh):
            for j in range(ow):
                best, at = None, -1
                for a in range(k[0]):
                    for c in range(k[1]):
                        r, q = i * s[0] - p[0] + a * d[0], j * s[1] - p[1] + c * d[1]
                        if 0 <= r < h and 0 <= q < w:
                            v = flat[b, r, q]
                            if best is None or v > best or np.isnan(v):
                                best, at = v, r * w + q
                values[b, i, j], index[b, i, j] = best, at
    return values.reshape(*lead, oh, ow), index.reshape(*lead, oh, ow)


def _run(
    kernel: KernelRunner,
    x: np.ndarray,
    k: tuple[int, ...],
    s: tuple[int, ...],
    p: tuple[int, ...],
    d: tuple[int, ...],
    ceil: bool,
    shape: tuple[int, ...],
) -> list[np.ndarray]:
    args = [In(x), IntList(k), IntList(s), IntList(p), IntList(d), ceil]
    return kernel.run(OP, args + [Out(x.dtype, shape), Out(np.int64, shape)])


@pytest.mark.parametrize("dtype", REAL)
def test_max_pool_basic(kernel: KernelRunner, dtype: type) -> None:
    x = (np.random.default_rng(12).permutation(2 * 3 * 6 * 6).reshape(2, 3, 6, 6) % 100).astype(
        dtype
    )
    values, index = _run(kernel, x, (2, 2), (), (0,), (1,), False, (2, 3, 3, 3))
    rv, ri = _reference(x, (2, 2), (2, 2), (0, 0), (1, 1), False)
    np.testing.assert_array_equal(values, rv)
    np.testing.assert_array_equal(index, ri)


@pytest.mark.parametrize("ceil", [False, True])
def test_max_pool_stride_padding_dilation(kernel: KernelRunner, ceil: bool) -> None:
    x = np.random.default_rng(13).standard_normal((3, 7, 8)).astype(np.float32)
    rv, ri = _reference(x, (3, 2), (2, 3), (1, 1), (2, 1), ceil)
    values, index = _run(kernel, x, (3, 2), (2, 3), (1, 1), (2, 1), ceil, rv.shape)
    np.testing.assert_array_equal(values, rv)
    np.testing.assert_array_equal(index, ri)
    rv, ri = _reference(x, (3, 3), (2, 2), (1, 1), (1, 1), ceil)
    values, index = _run(kernel, x, (3,), (2,), (1,), (1,), ceil, rv.shape)
    np.testing.assert_array_equal(values, rv)
    np.testing.assert_array_equal(index, ri)


def test_max_pool_nan_inf_and_channels_last(kernel: KernelRunner) -> None:
    x = np.array(
        [[[[np.nan, 1.0], [2.0, np.nan]], [[-np.inf, -np.inf], [-np.inf, -np.inf]]]], np.float32
    )
    values, index = _run(kernel, x, (2, 2), (), (0,), (1,), False, (1, 2, 1, 1))
    assert np.isnan(values[0, 0, 0, 0]) and index[0, 0, 0, 0] == 3
    assert values[0, 1, 0, 0] == -np.inf and index[0, 1, 0, 0] == 0
    y = np.random.default_rng(14).standard_normal((1, 3, 4, 4)).astype(np.float64)
    args = [In(y, dim_order=(0, 2, 3, 1)), IntList((2, 2)), IntList(()), IntList((0,))]
    values, index = kernel.run(
        OP,
        args + [IntList((1,)), False, Out(np.float64, (1, 3, 2, 2)), Out(np.int64, (1, 3, 2, 2))],
    )
    rv, ri = _reference(y, (2, 2), (2, 2), (0, 0), (1, 1), False)
    np.testing.assert_array_equal(values, rv)
    np.testing.assert_array_equal(index, ri)


def test_max_pool_empty_batch(kernel: KernelRunner) -> None:
    x = np.zeros((0, 2, 4, 4), np.float32)
    values, index = _run(kernel, x, (2, 2), (), (0,), (1,), False, (0, 2, 2, 2))
    assert values.shape == (0, 2, 2, 2) and index.shape == (0, 2, 2, 2)


def test_max_pool_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 1, 4, 4), np.float32)
    base = [IntList((2, 2)), IntList(()), IntList((0,)), IntList((1,)), False]
    for args in (
        [In(x), IntList((2, 2)), IntList(()), IntList((2,)), IntList((1,)), False]
        + [Out(np.float32, (1, 1, 4, 4)), Out(np.int64, (1, 1, 4, 4))],
        [In(x), *base, Out(np.float32, (1, 1, 2, 2)), Out(np.int32, (1, 1, 2, 2))],
        [In(x), *base, Out(np.float32, (1, 1, 3, 3)), Out(np.int64, (1, 1, 3, 3))],
        [In(x[0, 0]), *base, Out(np.float32, (2, 2)), Out(np.int64, (2, 2))],
        [In(x.astype(np.bool_)), *base, Out(np.bool_, (1, 1, 2, 2)), Out(np.int64, (1, 1, 2, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_max_pool2d_with_indices_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(81)
    (x,) = bfloat16_inputs(rng.standard_normal((1, 2, 4, 5)) * 3)
    x[0, 1, 0, 0] = np.nan
    args = [In(x), IntList((2, 2)), IntList((2, 2)), IntList((1, 1)), IntList((1, 1)), False]
    shape = (1, 2, 3, 3)
    values, index = run_bfloat16(kernel, OP, [*args, Out(np.float32, shape), Out(np.int64, shape)])
    expected_values, expected_index = _reference(x, (2, 2), (2, 2), (1, 1), (1, 1), False)
    np.testing.assert_array_equal(values, expected_values)
    np.testing.assert_array_equal(index, expected_index)


def test_max_pool_dilation_past_a_size_fails(sanitized_kernel: KernelRunner) -> None:
    """Note [Window parameters fit a size]: the span dilation * (kernel - 1) + 1 overflowed."""
    x = np.ones((1, 1, 4, 4), np.float32)
    args = [In(x), IntList((3,)), IntList((1,)), IntList((0,)), IntList((2**62,)), False]
    assert_fails(
        sanitized_kernel,
        OP,
        [*args, Out(np.float32, (1, 1, 1, 1)), Out(np.int64, (1, 1, 1, 1))],
        "kernel size, stride, padding and dilation must be at most 2147483647",
    )


def test_max_pool_window_of_the_largest_size(sanitized_kernel: KernelRunner) -> None:
    """The bound itself is taken: one window of 2**31 - 1 taps, half of it padding, holds
    the whole input (its first tap found without a step per padded tap)."""
    x = np.random.default_rng(7).standard_normal((1, 2, 4, 5)).astype(np.float32)
    values, index = _run(
        sanitized_kernel, x, (2**31 - 1,), (), (2**30 - 1,), (1,), False, (1, 2, 1, 1)
    )
    np.testing.assert_array_equal(values.reshape(2), x.reshape(2, -1).max(axis=1))
    np.testing.assert_array_equal(index.reshape(2), x.reshape(2, -1).argmax(axis=1))
