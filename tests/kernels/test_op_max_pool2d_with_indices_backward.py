from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::max_pool2d_with_indices_backward.grad_input"
FORWARD = "aten::max_pool2d_with_indices.out"


def _params(kernel: int, stride: int, padding: int) -> list[object]:
    return [
        IntList((kernel,) * 2),
        IntList((stride,) * 2),
        IntList((padding,) * 2),
        IntList((1, 1)),
    ]


def _scatter(dy: np.ndarray, indices: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    grad = np.zeros(shape, np.float64)
    planes = grad.reshape(-1, shape[-2] * shape[-1])
    for plane, (g, i) in enumerate(
        zip(dy.reshape(len(planes), -1), indices.reshape(len(planes), -1), strict=True)
    ):
        np.add.at(planes[plane], i, g.astype(np.float64))
    return grad


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize(("k", "s", "p", "ceil"), [(2, 2, 0, False), (3, 1, 1, True)])
def test_gradient_goes_to_each_maximum(
    kernel: KernelRunner, dtype: type, k: int, s: int, p: int, ceil: bool
) -> None:
    rng = np.random.default_rng(150)
    x = rng.standard_normal((2, 3, 5, 4)).astype(dtype)
    oh = -(-(5 + 2 * p - k) // s) + 1 if ceil else (5 + 2 * p - k) // s + 1
    ow = -(-(4 + 2 * p - k) // s) + 1 if ceil else (4 + 2 * p - k) // s + 1
    pooled = (2, 3, oh, ow)
    _, indices = kernel.run(
        FORWARD, [In(x), *_params(k, s, p), ceil, Out(dtype, pooled), Out(np.int64, pooled)]
    )
    dy = rng.standard_normal(pooled).astype(dtype)
    args = [In(dy), In(x), *_params(k, s, p), ceil, In(indices), Out(dtype, x.shape)]
    (grad,) = kernel.run(OP, args)
    tol = 1e-2 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(
        grad.astype(np.float64), _scatter(dy, indices, x.shape), rtol=tol, atol=tol
    )


def test_three_dims_and_strided(kernel: KernelRunner) -> None:
    x = np.random.default_rng(151).standard_normal((2, 4, 4)).astype(np.float32)
    indices = np.array([[[5, 3], [8, 15]], [[0, 6], [9, 14]]], np.int64)
    dy = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    args = [In(dy, dim_order=(2, 1, 0)), In(x), *_params(2, 2, 0), False, In(indices)]
    (grad,) = kernel.run(OP, args + [Out(np.float32, x.shape, dim_order=(1, 2, 0))])
    np.testing.assert_array_equal(grad, _scatter(dy, indices, x.shape))


def test_errors(kernel: KernelRunner) -> None:
    x = np.ones((1, 1, 4, 4), np.float32)
    dy = np.ones((1, 1, 2, 2), np.float32)
    good = np.array([[[[0, 2], [8, 10]]]], np.int64)
    params = _params(2, 2, 0)
    out = Out(np.float32, x.shape)
    for args, text in (
        ([In(dy), In(x), *params, False, In(good + 16), out], "outside its input plane"),
        ([In(dy), In(x), *params, False, In(good - 1), out], "outside its input plane"),
        ([In(dy), In(x), *params, False, In(good.astype(np.int32)), out], "int64"),
        (
            [In(np.ones((1, 1, 3, 3), np.float32)), In(x), *params, False, In(good), out],
            "pooled shape",
        ),
        ([In(dy), In(x), *_params(2, 2, 2), False, In(good), out], "at most half"),
        ([In(dy), In(x), *params, False, In(good), Out(np.float32, (1, 1, 4, 5))], "wrong shape"),
        ([In(dy.astype(np.float64)), In(x), *params, False, In(good), out], "self's dtype"),
        (
            [In(dy.astype(np.int64)), In(x.astype(np.int64)), *params, False, In(good)]
            + [Out(np.int64, x.shape)],
            "Long",
        ),
    ):
        assert_fails(kernel, OP, args, text)
