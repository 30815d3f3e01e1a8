"""Small multi-call programs for the prim kernels (tests/kernels/test_op_prim_*.py).

Prim ops return Int, Double or Bool values, which the runner cannot write as outputs, so
a program turns each result into a 0-dim tensor with `aten::full.out`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import IntList, KernelCall, Method, Tensor, Value
from tests.kernels.harness import KernelRunner, scalar_type


def run_program(
    runner: Path,
    scratch: Path,
    values: Sequence[Value],
    inputs: dict[int, np.ndarray],
    outputs: Sequence[int],
    calls: Sequence[tuple[str, tuple[int, ...]]],
) -> list[np.ndarray]:
    """Outputs of a one-method program of these values and calls, `inputs` by value index."""
    instructions = tuple(KernelCall(OperatorName.parse(op), args) for op, args in calls)
    method = Method("forward", tuple(values), tuple(inputs), tuple(outputs), instructions)
    return KernelRunner(runner, scratch).execute(method, list(inputs.values()))


def scalar_op(
    runner: Path, scratch: Path, op: str, operands: Sequence[int | float | bool], as_dtype: type
) -> np.ndarray:
    """The value `op` computes from constant operands, as a 0-dim tensor of `as_dtype`."""
    values: list[Value] = list(operands)
    result = len(values)
    values += [0, Tensor(scalar_type(as_dtype), ()), IntList(())]
    args = (*range(len(operands)), result)
    calls = [(op, args), ("aten::full.out", (result + 2, result, result + 1, result + 1))]
    (out,) = run_program(runner, scratch, values, {}, [result + 1], calls)
    return out


def tensor_to_scalar_op(
    runner: Path, scratch: Path, op: str, array: np.ndarray, extra: Sequence[int], as_dtype: type
) -> np.ndarray:
    """`op(array, *extra)` turned into a 0-dim tensor of `as_dtype`."""
    values: list[Value] = [Tensor(scalar_type(array.dtype), array.shape), *extra]
    result = len(values)
    values += [0, Tensor(scalar_type(as_dtype), ()), IntList(())]
    calls = [
        (op, (*range(len(values) - 3), result)),
        ("aten::full.out", (result + 2, result, result + 1, result + 1)),
    ]
    (out,) = run_program(runner, scratch, values, {0: array}, [result + 1], calls)
    return out
