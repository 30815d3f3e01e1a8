"""provenance.json's codec: per operator and kernel key, who needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.provenance import Provenance
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.selection import Selection
from tests.conftest import example_pte

ADD = OperatorName.parse("aten::add.out")


def test_round_trip_keeps_every_keys_sources(tmp_path: Path) -> None:
    selection = (
        Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
        | Selection.from_model(read_model_ops(example_pte("multi_method")), "multi_method.pte")
        | Selection.from_operators([ADD], "selective.toml:targets.t.extra_ops")
    )
    provenance = selection.provenance()
    path = tmp_path / "provenance.json"
    path.write_text(provenance.to_json())
    again = Provenance.read(path)
    assert again == provenance
    assert again.to_json() == provenance.to_json()
    assert again.needs[ADD][KernelKey.default()] == {"selective.toml:targets.t.extra_ops"}
    assert again.sources_of(ADD) == {
        "add_mul.pte",
        "multi_method.pte",
        "selective.toml:targets.t.extra_ops",
    }
    assert again.sources_of(OperatorName.parse("aten::conv2d.out")) == frozenset()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[]", "top level: expected a mapping, got a list"),
        ('{"aten::add.out": {"v2": []}}', "kernel key 'v2' is not 'default', 'v1' or 'v1/...'"),
        ('{"aten::add.out": {"default": [1]}}', "'aten::add.out'.'default'[0]: expected a string"),
    ],
)
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "provenance.json"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        Provenance.read(path)
    assert str(caught.value).startswith(f"{path}: not a provenance file: {problem}")
