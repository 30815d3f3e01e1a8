from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.bfloat16_call import assert_bfloat16_close, bfloat16_inputs, run_bfloat16
from tests.kernels.harness import In, KernelRunner, Out, assert_fails
from tests.kernels.pool_cases import pooled_size

OP = "aten::avg_pool2d.out"


def _reference(
    x: np.ndarray,
    k: tuple[int, int],
    s: tuple[int, int],
    p: tuple[int, int],
    ceil: bool,
    include_pad: bool,
    divisor: int | None,
) -> np.ndarray:
    *lead, h, w = x.shape
    oh, ow = pooled_size(h, k[0], s[0], p[0], ceil), pooled_size(w, k[1], s[1], p[1], ceil)
    flat = x.reshape(-1, h, w)
    out = np.zeros((flat.shape[0], oh, ow), x.dtype)
    integer = np.issubdtype(x.dtype, np.integer)
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * s[0] - p[0], j * s[1] - p[1]
            h1, w1 = min(h0 + k[0], h + p[0]), min(w0 + k[1], w + p[1])
            padded = (h1 - h0) * (w1 - w0)
            h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            total = (
                flat[:, h0:h1, w0:w1].astype(np.int64 if integer else np.float64).sum(axis=(1, 2))
            )
            count = divisor or (padded if include_pad else (h1 - h0) * (w1 - w0))
            if integer:
                out[:, i, j] = np.trunc(total / count).astype(np.int64)
            else:
                out[:, i, j] = total / count
    return out.reshape(*lead, oh, ow)


def _run(
    kernel: KernelRunner,
    x: np.ndarray,
    k: tuple[int, ...],
    s: tuple[int, ...],
    p: tuple[int, ...],
    ceil: bool,
    include_pad: bool,
    divisor: int | None,
    shape: tuple[int, ...],
) -> np.ndarray:
    args = [In(x), IntList(k), IntList(s), IntList(p), ceil, include_pad, divisor]
    (out,) = kernel.run(OP, args + [Out(x.dtype, shape)])
    return out


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64])
def test_avg_pool_basic(kernel: KernelRunner, dtype: type) -> None:
    x = (np.random.default_rng(15).standard_normal((2, 3, 6, 6)) * 10).astype(dtype)
    out = _run(kernel, x, (2, 2), (), (0,), False, True, None, (2, 3, 3, 3))
    expected = _reference(x, (2, 2), (2, 2), (0, 0), False, True, None)
    tol = 1e-2 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=tol)


@pytest.mark.parametrize("ceil", [False, True])
@pytest.mark.parametrize("include_pad", [False, True])
@pytest.mark.parametrize("divisor", [None, 3])
def test_avg_pool_options(
    kernel: KernelRunner, ceil: bool, include_pad: bool, divisor: int | None
) -> None:
    x = np.random.default_rng(16).standard_normal((3, 7, 8)).astype(np.float32)
    expected = _reference(x, (3, 2), (2, 3), (1, 1), ceil, include_pad, divisor)
    out = _run(kernel, x, (3, 2), (2, 3), (1, 1), ceil, include_pad, divisor, expected.shape)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_avg_pool_int64_truncates(kernel: KernelRunner) -> None:
    x = np.array([[[[-7, 0], [0, 0]]]], np.int64)
    out = _run(kernel, x, (2, 2), (), (0,), False, True, None, (1, 1, 1, 1))
    assert out[0, 0, 0, 0] == -1


def test_avg_pool_nan_inf_and_empty(kernel: KernelRunner) -> None:
    x = np.array([[[[np.nan, 1.0, np.inf, 1.0], [1.0, 1.0, 1.0, 1.0]]]], np.float32)
    out = _run(kernel, x, (2, 2), (), (0,), False, True, None, (1, 1, 1, 2))
    assert np.isnan(out[0, 0, 0, 0]) and out[0, 0, 0, 1] == np.inf
    e = np.zeros((0, 2, 4, 4), np.float32)
    out = _run(kernel, e, (2, 2), (), (0,), False, True, None, (0, 2, 2, 2))
    assert out.shape == (0, 2, 2, 2)


def test_avg_pool_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 1, 4, 4), np.float32)
    for args in (
        [
            In(x),
            IntList((2, 2)),
            IntList(()),
            IntList((2,)),
            False,
            True,
            None,
            Out(np.float32, (1, 1, 4, 4)),
        ],
        [
            In(x),
            IntList((2, 2)),
            IntList(()),
            IntList((0,)),
            False,
            True,
            0,
            Out(np.float32, (1, 1, 2, 2)),
        ],
        [
            In(x),
            IntList((2, 2)),
            IntList(()),
            IntList((0,)),
            False,
            True,
            None,
            Out(np.float64, (1, 1, 2, 2)),
        ],
        [In(x.astype(np.int32)), IntList((2, 2)), IntList(()), IntList((0,)), False, True, None]
        + [Out(np.int32, (1, 1, 2, 2))],
    ):
        assert_fails(kernel, OP, args)


def test_avg_pool2d_bfloat16(kernel: KernelRunner) -> None:
    rng = np.random.default_rng(82)
    (x,) = bfloat16_inputs(rng.standard_normal((1, 2, 4, 5)) * 3)
    args = [In(x), IntList((3, 3)), IntList((2, 2)), IntList((1, 1)), True, False, None]
    (got,) = run_bfloat16(kernel, OP, [*args, Out(np.float32, (1, 2, 3, 3))])
    expected = _reference(x, (3, 3), (2, 2), (1, 1), True, False, None)
    assert_bfloat16_close(got, expected, atol=2e-2)


# Note [Window parameters fit a size] (kernels/portable/util/nn_util.h): the runner fuzz,
# seed 23 case 82,440, a conv program's pooling stride of 2 made 6206893069828657111.
@pytest.mark.parametrize(
    ("k", "s", "p", "ceil"),
    [
        ((1,), (2**63 - 1,), (0,), True),  # input + 2 * padding - span + stride - 1
        ((2**62,), (), (2**61,), False),  # a window's padded count (2**61 + 4) ** 2
        ((2,), (2**31,), (0,), False),  # the first value past the bound
    ],
)
def test_avg_pool_window_past_a_size_fails(
    sanitized_kernel: KernelRunner,
    k: tuple[int, ...],
    s: tuple[int, ...],
    p: tuple[int, ...],
    ceil: bool,
) -> None:
    x = np.ones((1, 1, 4, 4), np.float32)
    args = [In(x), IntList(k), IntList(s), IntList(p), ceil, True, None]
    assert_fails(
        sanitized_kernel,
        OP,
        [*args, Out(np.float32, (1, 1, 1, 1))],
        "kernel size, stride, padding and dilation must be at most 2147483647",
    )
