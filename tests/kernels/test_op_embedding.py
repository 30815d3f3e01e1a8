from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, KernelRunner, Out, assert_fails

OP = "aten::embedding.out"


@pytest.mark.parametrize("dtype", ALL)
def test_embedding_every_dtype(kernel: KernelRunner, dtype: type) -> None:
    weight = (np.arange(15).reshape(5, 3) % 7).astype(dtype)
    idx = np.array([[4, 0], [2, 2]], np.int64)
    (out,) = kernel.run(OP, [In(weight), In(idx), -1, False, False, Out(dtype, (2, 2, 3))])
    np.testing.assert_array_equal(out, weight[idx])


def test_embedding_int32_0_dim_and_empty_indices(kernel: KernelRunner) -> None:
    weight = np.arange(8, dtype=np.float32).reshape(4, 2)
    (out,) = kernel.run(
        OP, [In(weight), In(np.array(3, np.int32)), -1, False, False, Out(np.float32, (2,))]
    )
    np.testing.assert_array_equal(out, weight[3])
    (out,) = kernel.run(
        OP, [In(weight), In(np.zeros((0,), np.int64)), -1, False, False, Out(np.float32, (0, 2))]
    )
    assert out.shape == (0, 2)


@pytest.mark.parametrize("bad", [4, -1])
def test_embedding_index_out_of_range_fails(kernel: KernelRunner, bad: int) -> None:
    assert_fails(
        kernel,
        OP,
        [
            In(np.ones((4, 2), np.float32)),
            In(np.array([bad])),
            -1,
            False,
            False,
            Out(np.float32, (1, 2)),
        ],
    )


def test_embedding_float_indices_fail(kernel: KernelRunner) -> None:
    assert_fails(
        kernel,
        OP,
        [
            In(np.ones((4, 2), np.float32)),
            In(np.array([1.0])),
            -1,
            False,
            False,
            Out(np.float32, (1, 2)),
        ],
    )
