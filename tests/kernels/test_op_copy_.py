"""copy_ writes into its self argument. Our own writer gives the call a separate return
value (the conformance program copy_inplace covers the layout the exporter writes)."""

from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import KernelFailed, KernelRunner, scalar_type

OP = "aten::copy_"


def run_inplace(
    kernel: KernelRunner, src: np.ndarray, shape: tuple[int, ...], non_blocking: bool = False
) -> list[np.ndarray]:
    """Values: self (a float32 output), src (an input), non_blocking, the returned tensor
    (another output); the outputs are self and the returned tensor."""
    values = (
        Tensor(ScalarType.Float, shape),
        Tensor(scalar_type(src.dtype), src.shape),
        non_blocking,
        Tensor(ScalarType.Float, shape),
    )
    call = KernelCall(OperatorName.parse(OP), (0, 1, 2, 3))
    return kernel.execute(Method("forward", values, (1,), (0, 3), (call,)), [src])


def test_copy_inplace_writes_self_and_the_returned_tensor(kernel: KernelRunner) -> None:
    src = np.array([1, 2, 3], np.int32)
    written, returned = run_inplace(kernel, src, (2, 3))
    expected = np.broadcast_to(src.astype(np.float32), (2, 3))
    np.testing.assert_array_equal(written, expected)
    np.testing.assert_array_equal(returned, expected)


@pytest.mark.parametrize(
    ("src", "non_blocking", "text"),
    [
        (np.ones((3,), np.float32), True, "non_blocking copies are not supported"),
        (np.ones((4,), np.float32), False, "src cannot be broadcast to self's shape"),
    ],
)
def test_copy_inplace_errors(
    kernel: KernelRunner, src: np.ndarray, non_blocking: bool, text: str
) -> None:
    with pytest.raises(KernelFailed) as caught:
        run_inplace(kernel, src, (2, 3), non_blocking)
    message = str(caught.value)
    assert f"{OP}: {text}" in message and "\n" not in message, message
