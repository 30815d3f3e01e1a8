from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, KernelRunner, Out, assert_fails

OP = "quantized_decomposed::mixed_linear.out"


def _args(n: int = 10) -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(-1, 1, 2 * n, dtype=np.float32).reshape(2, n)
    w = (np.arange(3 * n) * 29 % 255 - 127).astype(np.int8).reshape(3, n)
    return x, w


def _expected(x: np.ndarray, w: np.ndarray, s: np.ndarray) -> np.ndarray:
    groups = s.shape[1] if s.ndim == 2 else 1
    size = -(-x.shape[1] // groups)  # groups of ceil(n / G) columns, the last one shorter
    column_scales = np.repeat(s.reshape(len(s), groups), size, axis=1)[:, : x.shape[1]]
    return x.astype(np.float64) @ (w.astype(np.float64) * column_scales).T


@pytest.mark.parametrize("groups", [1, 2, 3, 4])
def test_row_and_group_scales(kernel: KernelRunner, groups: int) -> None:
    x, w = _args()
    s = np.linspace(0.01, 0.05, 3 * groups).astype(np.float32).reshape(3, groups)
    if groups == 1:
        s = s.reshape(3)
    (out,) = kernel.run(OP, [In(x), In(w), In(s), None, None, Out(np.float32, (2, 3))])
    np.testing.assert_allclose(out, _expected(x, w, s), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("dtype", "number"), [(np.float16, 5), (np.float64, None)])
def test_half_and_double_outs(kernel: KernelRunner, dtype: type, number: int | None) -> None:
    x, w = _args()
    s = np.full(3, 0.02, np.float32)
    (out,) = kernel.run(OP, [In(x), In(w), In(s), None, number, Out(dtype, (2, 3))])
    assert out.dtype == dtype
    np.testing.assert_allclose(out, _expected(x, w, s), rtol=2e-3, atol=2e-3)


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    x, w = _args()
    s = In(np.full(3, 0.02, np.float32))
    out = Out(np.float32, (2, 3))
    assert_fails(kernel, OP, [In(x), In(w), s, None, 7, Out(np.float64, (2, 3))], "Float or Half")
    assert_fails(kernel, OP, [In(x), In(w), s, None, 5, out], "Float or Half, the out's")
    assert_fails(kernel, OP, [In(x[:, :9]), In(w), s, None, None, out], "weight.size(1)")
    empty_groups = In(np.zeros((3, 0), np.float32))
    assert_fails(kernel, OP, [In(x), In(w), empty_groups, None, None, out], "at least one group")
    args = [In(x), In(w), s, In(np.zeros(3, np.float32)), None, out]
    assert_fails(kernel, OP, args, "not supported")
    assert_fails(kernel, OP, [In(x), In(w), s, None, None, Out(np.int32, (2, 3))], "dtype Int")
