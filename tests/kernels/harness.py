"""Running one kernel on the include-all runner through a single-operator program.

A test describes the call in schema order: `In` tensors become program inputs, `Out`
tensors program outputs (the call lists them again as its return value, one TensorList of
them when there are several, as the exporter does), anything else is a constant value of
the program. The program is written with our own `.pte` writer and run by
`build/all/runner`; the outputs come back as numpy arrays.

Also here, for every kernel test: the dtype lists tests parametrize over and
`assert_fails`, the check of a call that must fail.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import (
    IntList,
    KernelCall,
    Method,
    OptionalTensorList,
    Tensor,
    TensorList,
    Value,
    save_program,
)
from selective_build.codegen.scalar_type import ScalarType

_BY_NUMPY = {t.numpy_name: t for t in ScalarType if t.numpy_name}

INTEGER = [np.uint8, np.int8, np.int16, np.int32, np.int64]
FLOATING = [np.float16, np.float32, np.float64]
REAL = INTEGER + FLOATING
ALL = [np.bool_] + REAL


@dataclass(frozen=True)
class In:
    """An input tensor; `dim_order` other than contiguous stores it permuted in memory."""

    array: np.ndarray
    dim_order: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Out:
    """An out tensor of this dtype and shape; `dynamic` makes the shape an upper bound."""

    dtype: np.dtype | type
    shape: tuple[int, ...]
    dim_order: tuple[int, ...] | None = None
    dynamic: bool = False


@dataclass(frozen=True)
class InList:
    """A TensorList argument whose elements are program inputs, each in `dim_order`."""

    arrays: tuple[np.ndarray, ...]
    dim_order: tuple[int, ...] | None = None


@dataclass(frozen=True)
class InOptionalList:
    """An OptionalTensorList argument (Tensor?[]): arrays become program inputs, None
    entries are written as -1."""

    arrays: tuple[np.ndarray | None, ...]


@dataclass(frozen=True)
class OutList:
    """A Tensor(a!)[] out argument: one TensorList of out tensors, each a program output.
    The call's return value is another TensorList of the same tensors, as the exporter
    writes it (Note [Kernel call layout] in codegen/unboxing.py)."""

    outs: tuple[Out, ...]


class KernelFailed(Exception):
    """The runner exited non-zero; the message is its one line."""


def scalar_type(dtype: np.dtype | type) -> ScalarType:
    return _BY_NUMPY[np.dtype(dtype).name]


def _tensor(
    array_dtype: np.dtype | type,
    shape: tuple[int, ...],
    dim_order: tuple[int, ...] | None,
    dynamic: bool = False,
) -> Tensor:
    return Tensor(scalar_type(array_dtype), tuple(shape), dim_order, dynamic=dynamic)


@dataclass
class KernelRunner:
    runner: Path
    scratch: Path

    def run(self, op: str, args: Sequence[object], method: str = "forward") -> list[np.ndarray]:
        """Outputs of calling `op` with `args` (schema order, outs included)."""
        values: list[Value] = []
        inputs: list[np.ndarray] = []
        input_indices: list[int] = []
        outputs: list[int] = []
        returned: list[int] = []
        call_args: list[int] = []
        list_return: int | None = None

        def add_input(item: In) -> int:
            values.append(_tensor(item.array.dtype, item.array.shape, item.dim_order))
            input_indices.append(len(values) - 1)
            inputs.append(item.array)
            return len(values) - 1

        for arg in args:
            if isinstance(arg, In):
                call_args.append(add_input(arg))
            elif isinstance(arg, Out):
                values.append(_tensor(arg.dtype, arg.shape, arg.dim_order, arg.dynamic))
                outputs.append(len(values) - 1)
                returned.append(len(values) - 1)
                call_args.append(len(values) - 1)
            elif isinstance(arg, OutList):
                outs: list[int] = []
                for out in arg.outs:
                    values.append(_tensor(out.dtype, out.shape, out.dim_order, out.dynamic))
                    outputs.append(len(values) - 1)
                    outs.append(len(values) - 1)
                values.append(TensorList(tuple(outs)))
                call_args.append(len(values) - 1)
                values.append(TensorList(tuple(outs)))
                list_return = len(values) - 1
            elif isinstance(arg, InOptionalList):
                optional = tuple(
                    -1 if array is None else add_input(In(array)) for array in arg.arrays
                )
                values.append(OptionalTensorList(optional))
                call_args.append(len(values) - 1)
            elif isinstance(arg, IntList):
                # The file boxes an IntList: its items are indices of Int values.
                boxed: list[int] = []
                for item in arg.items:
                    values.append(item)
                    boxed.append(len(values) - 1)
                values.append(IntList(tuple(boxed)))
                call_args.append(len(values) - 1)
            elif isinstance(arg, InList):
                items = tuple(add_input(In(array, arg.dim_order)) for array in arg.arrays)
                values.append(TensorList(items))
                call_args.append(len(values) - 1)
            else:
                values.append(arg)  # type: ignore[arg-type]
                call_args.append(len(values) - 1)
        # The return value (Note [Kernel call layout] in codegen/unboxing.py): the out
        # tensor again, or one TensorList of several outs or of an out list.
        returns = returned
        if list_return is not None:
            returns = [list_return]
        elif len(returned) > 1:
            values.append(TensorList(tuple(returned)))
            returns = [len(values) - 1]
        call = KernelCall(OperatorName.parse(op), tuple(call_args + returns))
        return self.execute(
            Method(method, tuple(values), tuple(input_indices), tuple(outputs), (call,)), inputs
        )

    def execute(self, method: Method, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Outputs of running a program of this one method on `inputs`."""
        program = self.scratch / "program.pte"
        save_program([method], program)
        return self.run_file(program, inputs, len(method.outputs), method.name)

    def run_file(
        self, program: Path, inputs: Sequence[np.ndarray], outputs: int, method: str = "forward"
    ) -> list[np.ndarray]:
        """The `outputs` outputs of running `method` of the `.pte` file `program` on `inputs`;
        KernelFailed with the runner's message if it fails."""
        command = [str(self.runner), str(program), "--method", method]
        command += ["--output-dir", str(self.scratch)]
        for index, array in enumerate(inputs):
            path = self.scratch / f"in{index}.npy"
            contiguous = np.ascontiguousarray(array).reshape(array.shape)  # keeps 0-dim shapes
            np.save(path, contiguous, allow_pickle=False)
            command += ["--input", str(path)]
        for stale in self.scratch.glob("output*.npy"):
            stale.unlink()
        result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if result.returncode != 0:
            raise KernelFailed(result.stderr.strip())
        return [np.load(self.scratch / f"output{i}.npy") for i in range(outputs)]


def assert_fails(
    kernel: KernelRunner,
    op: str,
    args: Sequence[object],
    text: str = "",
    run: Callable[[str, Sequence[object]], object] | None = None,
) -> None:
    """Calling `op` with `args` fails with one line naming the op, `text` after the name.

    `run` calls the op instead of `kernel.run` (`functools.partial(run_bfloat16, kernel)`)."""
    with pytest.raises(KernelFailed) as caught:
        (run or kernel.run)(op, list(args))
    message = str(caught.value)
    _, named, detail = message.partition(f"{op}: ")
    assert named and text in detail and "\n" not in message, message


def assert_same(actual: np.ndarray, expected: np.ndarray) -> None:
    """Equal values (NaN == NaN), dtype and shape."""
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)
