"""The bytes of a method's outputs, read from the program's plan before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.pte.outputs import read_output_bytes
from selective_build.codegen.pte.writer import Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.conftest import example_pte


def test_exported_programs() -> None:
    assert read_output_bytes(example_pte("add_mul"), "forward") == (16,)
    assert read_output_bytes(example_pte("int_ops"), "forward") == (96, 8)
    assert read_output_bytes(example_pte("multi_method"), "twice") == (40,)
    assert read_output_bytes(example_pte("add_mul"), "absent") is None


def test_dtypes_dynamic_bounds_and_values_that_are_no_tensor(tmp_path: Path) -> None:
    values = (
        Tensor(ScalarType.Half, (3, 5)),
        Tensor(ScalarType.Double, (8, 2), dynamic=True),  # sizes: the upper bound
        7,
        Tensor(ScalarType.Bool, ()),
    )
    program = tmp_path / "p.pte"
    save_program([Method("forward", values, (), (0, 1, 2, 3), ())], program)
    assert read_output_bytes(program, "forward") == (30, 128, 0, 1)


def test_an_output_index_outside_the_values_is_one_line(tmp_path: Path) -> None:
    program = tmp_path / "p.pte"
    save_program([Method("forward", (Tensor(ScalarType.Float, (2,)),), (), (5,), ())], program)
    with pytest.raises(InputError) as caught:
        read_output_bytes(program, "forward")
    assert str(caught.value) == f"{program}: malformed program: values has no element 5"
