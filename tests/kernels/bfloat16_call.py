"""Calling one kernel on BFloat16 tensors, which `.npy` files cannot hold.

`run_bfloat16` takes the arguments `KernelRunner.run` takes. Every float32 `In` is cast to
BFloat16 in the program before the call, every float32 `Out` is a BFloat16 out of the call
cast back to float32 after it (both with `_to_dim_order_copy`); tensors of other dtypes and
constants (and the tensors of an `InOptionalList`) are passed as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import (
    IntList,
    KernelCall,
    Method,
    OptionalTensorList,
    Tensor,
    TensorList,
    Value,
)
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import In, InOptionalList, KernelRunner, Out, scalar_type

__all__ = ["assert_bfloat16_close", "bfloat16_inputs", "run_bfloat16", "to_bfloat16"]

_CAST = OperatorName.parse("dim_order_ops::_to_dim_order_copy.out")


def to_bfloat16(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (nearest even), as float32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return np.where(np.isnan(x), np.float32(np.nan), rounded.view(np.float32))


def bfloat16_inputs(*arrays: np.ndarray) -> list[np.ndarray]:
    """float32 copies of `arrays` already rounded to bfloat16 (what the kernel will see)."""
    return [to_bfloat16(np.asarray(array, np.float32)).astype(np.float32) for array in arrays]


def assert_bfloat16_close(
    got: np.ndarray, expected: np.ndarray, rtol: float = 1e-2, atol: float = 1e-5
) -> None:
    """`got` (a BFloat16 result cast to float32) against a float32 reference: same shape,
    NaN where the reference has NaN, otherwise within bfloat16's precision."""
    expected = np.asarray(expected, np.float32)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)


def run_bfloat16(kernel: KernelRunner, op: str, args: Sequence[object]) -> list[np.ndarray]:
    values: list[Value] = [False, None]  # the casts' non_blocking and dim_order
    inputs: list[np.ndarray] = []
    input_indices: list[int] = []
    calls: list[KernelCall] = []
    call_args: list[int] = []
    returned: list[int] = []
    casts_back: list[KernelCall] = []
    outputs: list[int] = []

    def add(value: Value) -> int:
        values.append(value)
        return len(values) - 1

    def add_input(array: np.ndarray) -> int:
        input_indices.append(add(Tensor(scalar_type(array.dtype), tuple(array.shape))))
        inputs.append(array)
        return input_indices[-1]

    for arg in args:
        if isinstance(arg, In):
            array = arg.array
            source = add_input(array)
            if array.dtype == np.float32:
                cast = add(Tensor(ScalarType.BFloat16, tuple(array.shape)))
                calls.append(KernelCall(_CAST, (source, 0, 1, cast, cast)))
                source = cast
            call_args.append(source)
        elif isinstance(arg, Out):
            if np.dtype(arg.dtype) == np.float32:
                out = add(Tensor(ScalarType.BFloat16, tuple(arg.shape)))
                back = add(Tensor(ScalarType.Float, tuple(arg.shape)))
                casts_back.append(KernelCall(_CAST, (out, 0, 1, back, back)))
                outputs.append(back)
            else:
                out = add(Tensor(scalar_type(arg.dtype), tuple(arg.shape)))
                outputs.append(out)
            call_args.append(out)
            returned.append(out)
        elif isinstance(arg, InOptionalList):
            items = tuple(-1 if array is None else add_input(array) for array in arg.arrays)
            call_args.append(add(OptionalTensorList(items)))
        elif isinstance(arg, IntList):
            call_args.append(add(IntList(tuple(add(item) for item in arg.items))))
        else:
            call_args.append(add(arg))  # type: ignore[arg-type]
    if len(returned) > 1:
        returned = [add(TensorList(tuple(returned)))]
    calls.append(KernelCall(OperatorName.parse(op), tuple(call_args + returned)))
    method = Method(
        "forward", tuple(values), tuple(input_indices), tuple(outputs), (*calls, *casts_back)
    )
    return kernel.execute(method, inputs)
