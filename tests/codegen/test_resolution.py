from __future__ import annotations

from pathlib import Path

import pytest

from codegen.errors import InputError
from codegen.kernel_library import read_kernel_library
from codegen.model import KernelKey, OperatorName
from codegen.resolution import resolve
from codegen.scalar_type import ScalarType
from codegen.selection import SelectedOperator, Selection

DATA = Path(__file__).parent / "data" / "kernels"
MUL = OperatorName.parse("aten::mul.out")
ADD = OperatorName.parse("aten::add.out")
FLOAT_KEY = KernelKey.parse("v1/6;0,1|6;0,1|6;0,1|6;0,1")
LONG_KEY = KernelKey.parse("v1/4;0,1|4;0,1|4;0,1|4;0,1")


def library() -> list:  # type: ignore[type-arg]
    return [read_kernel_library("testlib", DATA / "functions.yaml", DATA)]


def selection(op: OperatorName, *keys: KernelKey, source: str = "m.pte") -> Selection:
    return Selection({op: SelectedOperator(op, frozenset(keys), frozenset({source}))})


def test_exact_key_wins_and_default_serves_the_rest() -> None:
    resolution = resolve(selection(MUL, FLOAT_KEY, LONG_KEY), library(), "t")
    assert [(str(k.key), k.function) for k in resolution.kernels] == [
        ("default", "testlib::mul_out"),
        ("v1/6;0,1|6;0,1|6;0,1|6;0,1", "testlib::fast::mul_out_float"),
    ]
    assert resolution.registry_slots == 2
    assert resolution.op_dtypes == {MUL: frozenset({ScalarType.Float, ScalarType.Long})}


def test_operator_selected_by_name_keeps_every_dtype() -> None:
    resolution = resolve(selection(ADD, KernelKey.default()), library(), "t")
    assert resolution.op_dtypes == {ADD: None}


def test_include_all_registers_every_kernel() -> None:
    resolution = resolve(Selection(include_all_operators=True), library(), "t")
    assert resolution.registry_slots == 5


def test_missing_kernel_names_operator_and_models() -> None:
    relu = OperatorName.parse("aten::relu.out")
    wanted = selection(relu, FLOAT_KEY, source="a.pte") | selection(relu, FLOAT_KEY, source="b.pte")
    with pytest.raises(InputError) as caught:
        resolve(wanted, library(), "tiny")
    assert str(caught.value) == (
        "target tiny: no kernel library implements 1 selected operator key(s): "
        "aten::relu.out [v1/6;0,1|6;0,1|6;0,1|6;0,1] (needed by a.pte, b.pte)"
    )
