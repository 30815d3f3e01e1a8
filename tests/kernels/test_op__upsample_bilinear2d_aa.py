from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::_upsample_bilinear2d_aa.out"


def _weights(n_in: int, n_out: int) -> np.ndarray:
    """torch's anti-aliased bilinear weights, as a (n_out, n_in) matrix (no align_corners)."""
    step = n_in / n_out
    support = max(step, 1.0)
    invscale = 1 / step if step >= 1 else 1.0
    matrix = np.zeros((n_out, n_in))
    for o in range(n_out):
        centre = step * (o + 0.5)
        lo, hi = max(int(centre - support + 0.5), 0), min(int(centre + support + 0.5), n_in)
        for i in range(lo, hi):
            matrix[o, i] = max(0.0, 1 - abs((i - centre + 0.5) * invscale))
        matrix[o] /= matrix[o].sum()
    return matrix


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("size", [(3, 4), (8, 2), (5, 5)])
def test_matches_separable_reference(
    kernel: KernelRunner, dtype: type, size: tuple[int, int]
) -> None:
    x = np.random.default_rng(110).standard_normal((2, 3, 5, 6)).astype(dtype)
    args = [In(x), IntList(size), False, None, None, Out(dtype, (2, 3, *size))]
    (out,) = kernel.run(OP, args)
    wh, ww = _weights(5, size[0]), _weights(6, size[1])
    expected = np.einsum("oh,nchw,pw->ncop", wh, x.astype(np.float64), ww)
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), expected, rtol=tol, atol=tol)


def test_integers_round_and_stay_in_range(kernel: KernelRunner) -> None:
    x = np.array([[[[0, 255, 0, 255, 255, 255]]]], np.uint8)
    args = [In(x), IntList((1, 3)), False, None, None, Out(np.uint8, (1, 1, 1, 3))]
    (out,) = kernel.run(OP, args)
    expected = np.rint(x.astype(np.float64) @ _weights(6, 3).T)  # 109.3, 159.4, 255
    np.testing.assert_array_equal(out, expected.astype(np.uint8))
    x32 = np.array([[[[-7, 8, 100, -100]]]], np.int32)
    args = [In(x32), IntList((1, 2)), False, None, None, Out(np.int32, (1, 1, 1, 2))]
    (out,) = kernel.run(OP, args)
    expected = np.rint(x32.astype(np.float64) @ _weights(4, 2).T)  # 14.7, -14.7
    np.testing.assert_array_equal(out, expected.astype(np.int32))
    # The same size: the identity.
    args = [In(x32), IntList((1, 4)), False, None, None, Out(np.int32, (1, 1, 1, 4))]
    (out,) = kernel.run(OP, args)
    np.testing.assert_array_equal(out, x32)


def test_scales_and_empty_batch(kernel: KernelRunner) -> None:
    x = np.random.default_rng(111).standard_normal((1, 1, 4, 4)).astype(np.float32)
    # A scale of 0.5 gives the same step as the sizes 4 -> 2.
    (with_scales,) = kernel.run(
        OP, [In(x), IntList((2, 2)), False, 0.5, 0.5, Out(np.float32, (1, 1, 2, 2))]
    )
    (from_sizes,) = kernel.run(
        OP, [In(x), IntList((2, 2)), False, None, None, Out(np.float32, (1, 1, 2, 2))]
    )
    np.testing.assert_allclose(with_scales, from_sizes, rtol=1e-6)
    empty = np.zeros((0, 2, 3, 3), np.float32)
    (out,) = kernel.run(
        OP, [In(empty), IntList((2, 2)), False, None, None, Out(np.float32, (0, 2, 2, 2))]
    )
    assert out.shape == (0, 2, 2, 2)


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 2, 3, 3), np.float32)
    out = Out(np.float32, (1, 2, 2, 2))
    for args, text in (
        ([In(x), IntList((2,)), False, None, None, out], "two positive sizes"),
        ([In(x), IntList((0, 2)), False, None, None, out], "two positive sizes"),
        ([In(x[0]), IntList((2, 2)), False, None, None, out], "4 dims"),
        (
            [In(x), IntList((2, 2)), False, None, None, Out(np.float64, (1, 2, 2, 2))],
            "self's dtype",
        ),
        ([In(x), IntList((2, 3)), False, None, None, out], "wrong shape"),
        (
            [In(np.ones((1, 2, 0, 3), np.float32)), IntList((2, 2)), False, None, None, out],
            "non-empty",
        ),
        (
            [
                In(x.astype(np.bool_)),
                IntList((2, 2)),
                False,
                None,
                None,
                Out(np.bool_, (1, 2, 2, 2)),
            ],
            "Bool",
        ),
    ):
        assert_fails(kernel, OP, args, text)
