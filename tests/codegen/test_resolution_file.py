"""resolution.json's codec: what codegen decided, as the compile and size stages read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.resolution import resolve
from selective_build.codegen.resolution_file import ResolutionFile
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.selection import Selection
from tests.conftest import example_pte
from tests.workspace import REPO

PORTABLE = REPO / "kernels" / "portable"


def test_keeps_each_kernels_library_and_source_file(tmp_path: Path) -> None:
    library = read_kernel_library("portable", PORTABLE / "functions.yaml", PORTABLE)
    selection = Selection.from_model(read_model_ops(example_pte("mlp")), "mlp.pte")
    resolution = resolve(selection, [library], "mlp")
    written = ResolutionFile.of(resolution)
    path = tmp_path / "resolution.json"
    path.write_text(written.to_json())
    again = ResolutionFile.read(path)
    assert again == written
    assert again.to_json() == written.to_json()
    # The source each library named, never derived again from the operator's name.
    assert [(k.library, k.source) for k in again.kernels] == [
        (k.library, k.source) for k in resolution.kernels
    ]
    assert again.sources == tuple(sorted({k.source for k in resolution.kernels}, key=str))
    assert (again.operators, again.registry_slots) == (
        len(resolution.op_dtypes),
        resolution.registry_slots,
    )
    assert again.op_dtypes == resolution.op_dtypes


def test_says_whether_an_operator_keeps_a_dtype() -> None:
    add, view = OperatorName.parse("aten::add.out"), OperatorName.parse("aten::view_copy.out")
    floats = ResolutionFile((), {add: frozenset({ScalarType.Float})}, 1)
    assert floats.keeps(ScalarType.Float) and not floats.keeps(ScalarType.Bool)
    # An operator selected by name keeps every dtype.
    assert ResolutionFile((), {add: frozenset({ScalarType.Float}), view: None}, 2).keeps(
        ScalarType.Bool
    )
    text = floats.to_json()
    assert '"aten::add.out": [\n      "Float"\n    ]' in text
    assert ResolutionFile.from_json(text, "r.json") == floats


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "not a resolution file: Expecting value"),
        ("{}", "not a resolution file: top level: no 'kernels'"),
        ('{"kernels": [{}]}', "not a resolution file: kernels[0]: no 'op'"),
        (
            '{"kernels": [], "op_dtypes": [], "registry_slots": 0}',
            "not a resolution file: op_dtypes: expected a mapping, got a list",
        ),
        (
            '{"kernels": [], "op_dtypes": {"aten::add.out": ["Flaot"]}, "registry_slots": 0}',
            "not a resolution file: op_dtypes.aten::add.out: unknown dtype 'Flaot'",
        ),
        (
            '{"kernels": [], "op_dtypes": {}, "registry_slots": "3"}',
            "not a resolution file: registry_slots: expected an integer, got a string",
        ),
    ],
)
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "resolution.json"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        ResolutionFile.read(path)
    assert str(caught.value).startswith(f"{path}: {problem}")
    with pytest.raises(InputError, match="cannot read"):
        ResolutionFile.read(tmp_path / "absent.json")
