"""native_dropout.out: PyTorch's rule (kept elements scaled by 1 / (1 - p)), draws from
the runner's generator (Note [Random kernels] in kernels/portable/util/random.h)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import FLOATING, In, KernelRunner, Out, assert_fails

OP = "aten::native_dropout.out"


def dropout(
    kernel: KernelRunner, x: np.ndarray, p: float, train: bool | None
) -> tuple[np.ndarray, np.ndarray]:
    out, mask = kernel.run(OP, [In(x), p, train, Out(x.dtype, x.shape), Out(np.bool_, x.shape)])
    assert out.dtype == x.dtype and mask.dtype == np.bool_ and mask.shape == x.shape
    return out, mask


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("train", [True, None])
def test_training_keeps_and_scales(kernel: KernelRunner, dtype: type, train: bool | None) -> None:
    x = (np.arange(4096).reshape(64, 64) % 17 + 1).astype(dtype)
    out, mask = dropout(kernel, x, 0.25, train)
    # 4096 draws at p = 0.25: the kept fraction's standard error is 0.007.
    assert abs(mask.mean() - 0.75) < 0.05
    expected = np.where(mask, x.astype(np.float64) / 0.75, 0.0).astype(dtype)
    np.testing.assert_allclose(out, expected, rtol=1e-3 if dtype is np.float16 else 1e-6)


@pytest.mark.parametrize("dtype", FLOATING)
def test_evaluation_and_p_zero_copy(kernel: KernelRunner, dtype: type) -> None:
    x = np.linspace(-3, 3, 12).reshape(3, 4).astype(dtype)
    for p, train in ((0.5, False), (0.0, True)):
        out, mask = dropout(kernel, x, p, train)
        np.testing.assert_array_equal(out, x)
        assert mask.all()


def test_p_one_drops_everything_strided_and_empty(kernel: KernelRunner) -> None:
    x = np.ones((2, 3, 4), dtype=np.float32)
    out, mask = dropout(kernel, x, 1.0, True)
    assert not mask.any() and not out.any()
    order = (2, 0, 1)
    args = [In(x, order), 0.5, True, Out(np.float32, x.shape, order), Out(np.bool_, x.shape, order)]
    out, mask = kernel.run(OP, args)
    np.testing.assert_array_equal(out, np.where(mask, 2.0, 0.0).astype(np.float32))
    e = np.zeros((0, 2), dtype=np.float32)
    assert dropout(kernel, e, 0.5, True)[0].shape == (0, 2)


def test_errors_are_one_line(kernel: KernelRunner) -> None:
    x = np.ones(4, dtype=np.float32)
    cases = [
        ([In(x), 1.5, True, Out(np.float32, (4,)), Out(np.bool_, (4,))], "between 0 and 1"),
        ([In(x), -0.1, True, Out(np.float32, (4,)), Out(np.bool_, (4,))], "between 0 and 1"),
        ([In(x), 0.5, True, Out(np.float64, (4,)), Out(np.bool_, (4,))], "input's dtype"),
        ([In(x), 0.5, True, Out(np.float32, (4,)), Out(np.uint8, (4,))], "Bool"),
        ([In(x.astype(np.int32)), 0.5, True, Out(np.int32, (4,)), Out(np.bool_, (4,))], "dtype"),
        ([In(x), 0.5, True, Out(np.float32, (3,)), Out(np.bool_, (4,))], ""),
    ]
    for args, text in cases:
        assert_fails(kernel, OP, args, text)
