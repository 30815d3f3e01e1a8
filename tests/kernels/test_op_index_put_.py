"""index_put_ writes into its self argument; the exporter never emits it (expected.toml
[unexportable]), so our own writer's call, with a separate return value, is its test."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, OptionalTensorList, Tensor
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import KernelFailed, KernelRunner, scalar_type

OP = "aten::index_put_"


def run_inplace(
    kernel: KernelRunner, rows: np.ndarray, values: np.ndarray, accumulate: bool
) -> list[np.ndarray]:
    """Values: self (a zero-filled (3, 2) float32 output), the row index (an input), the
    Tensor?[] list, values (an input), accumulate, the returned tensor (another output)."""
    program_values = (
        Tensor(ScalarType.Float, (3, 2)),
        Tensor(scalar_type(rows.dtype), rows.shape),
        OptionalTensorList((1,)),
        Tensor(scalar_type(values.dtype), values.shape),
        accumulate,
        Tensor(ScalarType.Float, (3, 2)),
    )
    call = KernelCall(OperatorName.parse(OP), (0, 2, 3, 4, 5))
    method = Method("forward", program_values, (1, 3), (0, 5), (call,))
    return kernel.execute(method, [rows, values])


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_inplace(kernel: KernelRunner, accumulate: bool) -> None:
    rows = np.array([2, 0, 2], np.int64)
    values = np.array([1.0, 2.0], np.float32)
    written, returned = run_inplace(kernel, rows, values, accumulate)
    expected = np.zeros((3, 2), np.float32)
    if accumulate:
        np.add.at(expected, rows, values)
    else:
        expected[rows] = values
    np.testing.assert_array_equal(written, expected)
    np.testing.assert_array_equal(returned, expected)


def test_index_put_inplace_fails_in_one_line(kernel: KernelRunner) -> None:
    with pytest.raises(KernelFailed) as caught:
        run_inplace(kernel, np.array([3], np.int64), np.array([1.0, 2.0], np.float32), False)
    message = str(caught.value)
    assert f"{OP}: index is out of range" in message and "\n" not in message, message
