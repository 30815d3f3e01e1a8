from __future__ import annotations

import numpy as np

from tests.kernels.harness import In, KernelRunner, Out, assert_fails

OP = "quantized_decomposed::mixed_mm.out"


def _args(m: int = 2, n: int = 5, p: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.linspace(-1, 1, m * n, dtype=np.float32).reshape(m, n)
    w = (np.arange(n * p) * 29 % 255 - 127).astype(np.int8).reshape(n, p)
    s = np.linspace(0.01, 0.05, n).astype(np.float32)
    return x, w, s


def test_scales_per_weight_row(kernel: KernelRunner) -> None:
    x, w, s = _args()
    (out,) = kernel.run(OP, [In(x), In(w), In(s), None, Out(np.float32, (2, 3))])
    expected = x @ (w.astype(np.float32) * s[:, None])
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)


def test_half_and_a_permuted_weight(kernel: KernelRunner) -> None:
    x, w, s = _args()
    args = [In(x.astype(np.float16)), In(w), In(s.astype(np.float16)), None]
    (out,) = kernel.run(OP, [*args, Out(np.float16, (2, 3))])
    expected = x.astype(np.float16).astype(np.float32) @ (
        w.astype(np.float32) * s.astype(np.float16).astype(np.float32)[:, None]
    )
    np.testing.assert_allclose(out.astype(np.float32), expected, rtol=2e-3, atol=2e-3)
    stored = np.ascontiguousarray(w.T).T  # the same values, kept column-major
    (out,) = kernel.run(OP, [In(x), In(stored, (1, 0)), In(s), None, Out(np.float32, (2, 3))])
    np.testing.assert_allclose(out, x @ (w.astype(np.float32) * s[:, None]), rtol=1e-6, atol=1e-6)


def test_bad_arguments_fail(kernel: KernelRunner) -> None:
    x, w, s = _args()
    out = Out(np.float32, (2, 3))
    args = [In(x), In(w), In(s), In(np.zeros(5, np.float32)), out]
    assert_fails(kernel, OP, args, "weight_zero_points are not supported")
    assert_fails(
        kernel, OP, [In(x), In(w.astype(np.uint8)), In(s), None, out], "weight must be Char"
    )
    assert_fails(kernel, OP, [In(x[:, :4]), In(w), In(s), None, out], "must equal weight.size(0)")
    assert_fails(kernel, OP, [In(x), In(w), In(s[:4]), None, out], "weight_scales must be 1-D")
    doubles = In(s.astype(np.float64))
    assert_fails(kernel, OP, [In(x), In(w), doubles, None, out], "of the input's dtype")
    args = [In(x), In(w), In(s), None, Out(np.float16, (2, 3))]
    assert_fails(kernel, OP, args, "out must have the input's dtype")
