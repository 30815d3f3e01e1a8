from __future__ import annotations

import io
import struct
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.pte.writer import (
    DelegateCall,
    IntList,
    KernelCall,
    Method,
    OptionalTensorList,
    Tensor,
    TensorList,
    save_program,
    write_program,
)
from selective_build.codegen.scalar_type import ScalarType

ADD = OperatorName.parse("aten::add.out")
CAT = OperatorName.parse("aten::cat.out")


def add_method(dtype: ScalarType, name: str = "forward") -> Method:
    values = (Tensor(dtype, (2, 3)), Tensor(dtype, (2, 3)), 1, Tensor(dtype, (2, 3)))
    return Method(name, values, (0, 1), (3,), (KernelCall(ADD, (0, 1, 2, 3, 3)),))


@pytest.mark.parametrize("dtype", list(ScalarType))
def test_single_operator_program_of_any_dtype_round_trips(
    tmp_path: Path, dtype: ScalarType
) -> None:
    path = tmp_path / "add.pte"
    save_program([add_method(dtype)], path)
    key = KernelKey.parse("v1/" + "|".join([f"{dtype.number};0,1"] * 4))
    assert read_model_ops(path).operators == {ADD: frozenset({key})}


def test_lists_channels_last_and_several_methods(tmp_path: Path) -> None:
    values = (
        Tensor(ScalarType.Long, (2,)),
        Tensor(ScalarType.Long, (3,)),
        TensorList((0, 1)),
        0,
        Tensor(ScalarType.Long, (5,)),
        OptionalTensorList((-1, 6)),
        Tensor(ScalarType.Float, (1, 2, 3, 4), dim_order=(0, 2, 3, 1)),
        IntList((1, 2)),
    )
    cat = Method("cat", values, (0, 1), (4,), (KernelCall(CAT, (2, 3, 4, 4)),))
    index = Method("index", values, (6,), (6,), (KernelCall(ADD, (5, 6, 7)),))
    path = tmp_path / "multi.pte"
    save_program([cat, index, add_method(ScalarType.Float, "third")], path)
    ops = read_model_ops(path)
    assert ops.methods == ("cat", "index", "third")
    assert {str(k) for k in ops.operators[CAT]} == {"v1/4;0|4;0|4;0"}
    assert {str(k) for k in ops.operators[ADD]} == {
        "v1/6;0,2,3,1|6;0,2,3,1",
        "v1/6;0,1|6;0,1|6;0,1|6;0,1",
    }


def test_constants_go_to_an_aligned_segment_behind_an_extended_header(tmp_path: Path) -> None:
    weights = np.arange(6, dtype=np.float32).tobytes()
    values = (
        Tensor(ScalarType.Float, (2, 3)),
        Tensor(ScalarType.Float, (2, 3), constant=weights),
        1,
        Tensor(ScalarType.Float, (2, 3)),
    )
    method = Method("forward", values, (0,), (3,), (KernelCall(ADD, (0, 1, 2, 3, 3)),))
    buffer = io.BytesIO()
    write_program([method], buffer)
    data = buffer.getvalue()
    assert data[4:12] == b"ET12eh00"
    _, program_size, segment_base, segment_size = struct.unpack_from("<IQQQ", data, 12)
    assert segment_base % 128 == 0 and segment_base >= program_size
    assert segment_size == len(weights)
    assert data[segment_base:] == weights
    path = tmp_path / "w.pte"
    path.write_bytes(data)
    assert ADD in read_model_ops(path).operators


def test_delegates_are_recorded(tmp_path: Path) -> None:
    values = (Tensor(ScalarType.Float, (4,)), Tensor(ScalarType.Float, (4,)))
    method = Method(
        "forward", values, (0,), (1,), (DelegateCall(0, (0, 1)),), delegates=("XnnpackBackend",)
    )
    path = tmp_path / "d.pte"
    save_program([method], path)
    ops = read_model_ops(path)
    assert ops.delegates == ("XnnpackBackend",) and ops.operators == {}


def test_ten_thousand_kernel_calls(tmp_path: Path) -> None:
    values = (Tensor(ScalarType.Float, (4,)), 1, Tensor(ScalarType.Float, (4,)))
    calls = tuple(KernelCall(ADD, (0, 0, 1, 2, 2)) for _ in range(10_000))
    path = tmp_path / "many.pte"
    save_program([Method("forward", values, (0,), (2,), calls)], path)
    assert len(read_model_ops(path).operators[ADD]) == 1


def test_a_failed_save_leaves_no_partial_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program that could not be written completely is not left where a finished one goes:
    the next run would take the stub for the program."""
    path = tmp_path / "model.pte"
    save_program([add_method(ScalarType.Float)], path)
    before = path.read_bytes()

    def fail(methods: object, output: io.BufferedIOBase) -> None:
        output.write(b"half a program")
        raise OSError("disk full")

    monkeypatch.setattr("selective_build.codegen.pte.writer.write_program", fail)
    with pytest.raises(OSError, match="disk full"):
        save_program([add_method(ScalarType.Float)], path)
    with pytest.raises(OSError, match="disk full"):
        save_program([add_method(ScalarType.Float)], tmp_path / "new.pte")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.pte"]
