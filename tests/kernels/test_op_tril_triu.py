from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.bfloat16_call import run_bfloat16, to_bfloat16
from tests.kernels.harness import ALL, In, KernelFailed, KernelRunner, Out, assert_fails

OPS = {"tril": ("aten::tril.out", np.tril), "triu": ("aten::triu.out", np.triu)}


def sample(dtype: type, shape: tuple[int, ...]) -> np.ndarray:
    return ((np.arange(int(np.prod(shape))) % 7) + 1).astype(dtype).reshape(shape)


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("dtype", ALL)
def test_every_dtype(kernel: KernelRunner, name: str, dtype: type) -> None:
    op, reference = OPS[name]
    x = sample(dtype, (3, 4))
    (out,) = kernel.run(op, [In(x), 0, Out(dtype, x.shape)])
    np.testing.assert_array_equal(out, reference(x))


@pytest.mark.parametrize("name", sorted(OPS))
def test_diagonals_batches_and_layouts(kernel: KernelRunner, name: str) -> None:
    op, reference = OPS[name]
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) - 50
    for diagonal in (-5, -2, -1, 0, 1, 3, 7):
        (out,) = kernel.run(op, [In(x), diagonal, Out(np.float32, x.shape)])
        np.testing.assert_array_equal(out, reference(x, diagonal))
    # self stored channels-last, out contiguous; and the other way round.
    (out,) = kernel.run(op, [In(x, (0, 2, 3, 1)), 1, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, reference(x, 1))
    (out,) = kernel.run(op, [In(x), -1, Out(np.float32, x.shape, (0, 2, 3, 1))])
    np.testing.assert_array_equal(out, reference(x, -1))


@pytest.mark.parametrize("name", sorted(OPS))
def test_nan_inf_and_empty(kernel: KernelRunner, name: str) -> None:
    op, reference = OPS[name]
    x = np.array([[np.nan, np.inf], [-np.inf, np.nan], [1.0, -0.0]], dtype=np.float64)
    (out,) = kernel.run(op, [In(x), 0, Out(np.float64, x.shape)])
    np.testing.assert_array_equal(out, reference(x))
    for shape in [(0, 3), (3, 0), (2, 0, 4)]:
        e = np.zeros(shape, np.int32)
        (out,) = kernel.run(op, [In(e), 0, Out(np.int32, shape)])
        assert out.shape == shape


@pytest.mark.parametrize("name", sorted(OPS))
def test_bfloat16(kernel: KernelRunner, name: str) -> None:
    op, reference = OPS[name]
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    (out,) = run_bfloat16(kernel, op, [In(x), 1, Out(np.float32, x.shape)])
    np.testing.assert_array_equal(out, reference(to_bfloat16(x), 1))


@pytest.mark.parametrize("name", sorted(OPS))
def test_errors(kernel: KernelRunner, name: str) -> None:
    op, _ = OPS[name]
    with pytest.raises(KernelFailed, match=f"aten::{name}.out: self must have at least 2 dims"):
        kernel.run(op, [In(np.ones(3, np.float32)), 0, Out(np.float32, (3,))])
    assert_fails(kernel, op, [In(np.ones((2, 2), np.float32)), 0, Out(np.int32, (2, 2))])
    assert_fails(kernel, op, [In(np.ones((2, 2), np.float32)), 0, Out(np.float32, (2, 3))])
