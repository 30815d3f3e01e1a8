from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import ALL, In, InOptionalList, KernelRunner, Out, assert_fails

OP = "aten::index_put.out"


def reference(
    x: np.ndarray, where: tuple[object, ...], values: np.ndarray, accumulate: bool
) -> np.ndarray:
    out = x.copy()
    if accumulate:
        np.add.at(out, where, values) if out.dtype != np.bool_ else np.logical_or.at(
            out, where, values
        )
    else:
        out[where] = values
    return out


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_every_dtype(kernel: KernelRunner, dtype: type, accumulate: bool) -> None:
    x = (np.arange(12).reshape(3, 4) % 2).astype(dtype)
    rows = np.array([0, 2, 0], np.int64)  # a repeated row: the last write wins, or both add
    values = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    (out,) = kernel.run(
        OP, [In(x), InOptionalList((rows,)), In(values), accumulate, Out(dtype, (3, 4))]
    )
    expected = reference(x, (rows,), values, accumulate)
    np.testing.assert_array_equal(out, expected)


def test_index_put_none_broadcast_mask_and_layouts(kernel: KernelRunner) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    cols = np.array([[1], [3]], np.int32)
    values = np.array([-1.0, -2.0], np.float32).reshape(2, 1)  # to (2, 3, 2, 1)
    (out,) = kernel.run(
        OP,
        [
            In(x, (2, 0, 1)),
            InOptionalList((None, None, cols)),
            In(values),
            False,
            Out(np.float32, x.shape),
        ],
    )
    np.testing.assert_array_equal(
        out, reference(x, (slice(None), slice(None), cols), values, False)
    )
    mask = np.arange(6).reshape(2, 3) % 2 == 0
    (out,) = kernel.run(
        OP,
        [
            In(x),
            InOptionalList((mask,)),
            In(np.array(9.0, np.float32)),
            True,
            Out(np.float32, x.shape),
        ],
    )
    np.testing.assert_array_equal(out, reference(x, (mask,), np.array(9.0, np.float32), True))
    # Separated indices put the index dims first: values of shape (2, 3).
    first, last = np.array([0, 1]), np.array([3, 0])
    values = -np.arange(6, dtype=np.float32).reshape(2, 3)
    (out,) = kernel.run(
        OP,
        [In(x), InOptionalList((first, None, last)), In(values), False, Out(np.float32, x.shape)],
    )
    np.testing.assert_array_equal(out, reference(x, (first, slice(None), last), values, False))
    # No index at all: values broadcast over the whole of self.
    (out,) = kernel.run(
        OP, [In(x), InOptionalList(()), In(np.ones(4, np.float32)), True, Out(np.float32, x.shape)]
    )
    np.testing.assert_array_equal(out, x + 1)


def test_index_put_negative_and_empty_indices(kernel: KernelRunner) -> None:
    x = np.zeros((3, 2), np.int64)
    (out,) = kernel.run(
        OP,
        [
            In(x),
            InOptionalList((np.array([-1]),)),
            In(np.array([5], np.int64)),
            False,
            Out(np.int64, (3, 2)),
        ],
    )
    np.testing.assert_array_equal(out, [[0, 0], [0, 0], [5, 5]])
    (out,) = kernel.run(
        OP,
        [
            In(x),
            InOptionalList((np.zeros(0, np.int64),)),
            In(np.ones(2, np.int64)),
            False,
            Out(np.int64, (3, 2)),
        ],
    )
    np.testing.assert_array_equal(out, x)


def test_index_put_errors(kernel: KernelRunner) -> None:
    x = np.zeros((3, 4), np.float32)
    out = Out(np.float32, (3, 4))
    rows = InOptionalList((np.array([0, 3]),))
    assert_fails(
        kernel, OP, [In(x), rows, In(np.ones(4, np.float32)), False, out], "index is out of range"
    )
    rows = InOptionalList((np.array([0, 1]),))
    assert_fails(
        kernel, OP, [In(x), rows, In(np.ones(3, np.float32)), False, out], "cannot be broadcast"
    )
    assert_fails(
        kernel,
        OP,
        [In(x), rows, In(np.ones(4, np.float64)), False, out],
        "values must have self's dtype",
    )
    floats = InOptionalList((np.array([0.0]),))
    assert_fails(
        kernel, OP, [In(x), floats, In(np.ones(4, np.float32)), False, out], "indices must be"
    )
    three = InOptionalList((np.array([0]), np.array([0]), np.array([0])))
    assert_fails(
        kernel, OP, [In(x), three, In(np.ones(1, np.float32)), False, out], "too many indices"
    )
