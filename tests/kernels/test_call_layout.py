"""Kernel calls as the real exporter lays them out, and calls that do not fit a schema.

Note [Kernel call layout] in codegen/unboxing.py: a call lists the schema's arguments, then
the returned value (the out tensor again, or a TensorList). The runtime checks every call
once, when the method is loaded; a misfit fails loading with one line naming the operator,
the argument and what it got.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import (
    IntList,
    KernelCall,
    Method,
    Tensor,
    TensorList,
    Value,
)
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import KernelFailed, KernelRunner

# Exported by tools/export_call_layout.py with ExecuTorch 1.5.1: split_with_sizes_copy.out
# (its Tensor list again as the returned value), max.dim_max (a TensorList of both outs)
# and add.out (the out tensor twice).
SPLIT_MAX = Path(__file__).parent / "data" / "split_max.pte"
F32 = ScalarType.Float


def test_real_exporter_layouts_run(kernel: KernelRunner) -> None:
    x = np.random.default_rng(7).standard_normal((3, 4)).astype(np.float32)
    summed, values, indices = kernel.run_file(SPLIT_MAX, [x], 3)
    np.testing.assert_array_equal(summed, x[:, :2] + x[:, 2:])
    np.testing.assert_array_equal(values, x.max(axis=1))
    np.testing.assert_array_equal(indices, x.argmax(axis=1))


def load_failure(
    kernel: KernelRunner, values: tuple[Value, ...], op: str, args: tuple[int, ...]
) -> str:
    """The one line a program of this single call fails loading with."""
    method = Method(
        "forward", values, (0,), (len(values) - 1,), (KernelCall(OperatorName.parse(op), args),)
    )
    inputs = [np.zeros((2,), np.float32)]
    with pytest.raises(KernelFailed) as caught:
        kernel.execute(method, inputs)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


def test_a_call_without_its_returned_value_fails_loading(kernel: KernelRunner) -> None:
    # add.out with the out tensor once: what our own writer used to emit for some ops.
    values: tuple[Value, ...] = (Tensor(F32, (2,)), Tensor(F32, (2,)), 1, Tensor(F32, (2,)))
    message = load_failure(kernel, values, "aten::add.out", (0, 1, 2, 3))
    assert message.endswith(
        "aten::add.out: the call has 4 values, its schema takes 5 "
        "(the arguments, then the returned value)"
    ), message


def test_an_argument_of_the_wrong_kind_is_named(kernel: KernelRunner) -> None:
    values: tuple[Value, ...] = (Tensor(F32, (2,)), Tensor(F32, (2,)), Tensor(F32, (2,)))
    message = load_failure(kernel, values, "aten::add.out", (0, 1, 1, 2, 2))
    assert message.endswith("aten::add.out: argument 'alpha' expects Scalar, got Tensor"), message


def test_a_list_entry_of_the_wrong_kind_is_named(kernel: KernelRunner) -> None:
    # cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out): an Int among the tensors.
    values: tuple[Value, ...] = (Tensor(F32, (2,)), 5, TensorList((0, 1)), 0, Tensor(F32, (4,)))
    message = load_failure(kernel, values, "aten::cat.out", (2, 3, 4, 4))
    assert message.endswith(
        "aten::cat.out: argument 'tensors' expects Tensor[], got Tensor[] with an entry of "
        "another kind"
    ), message


def test_a_returned_value_of_the_wrong_kind_is_named(kernel: KernelRunner) -> None:
    # split_with_sizes_copy.out returns its out list again, not a tensor.
    values: tuple[Value, ...] = (Tensor(F32, (2,)), 1, IntList((1,)), 0, TensorList((5,)))
    values += (Tensor(F32, (1,)),)
    message = load_failure(kernel, values, "aten::split_with_sizes_copy.out", (0, 2, 3, 4, 5))
    assert message.endswith(
        "aten::split_with_sizes_copy.out: the returned value expects Tensor[], got Tensor"
    ), message
