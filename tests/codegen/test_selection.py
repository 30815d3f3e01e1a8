from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.selection import SelectedOperator, Selection, read_selection
from tests.conftest import example_pte

ADD = OperatorName.parse("aten::add.out")
RELU = OperatorName.parse("aten::relu.out")


def test_merge_unions_keys_and_provenance_and_ors_flags() -> None:
    add_mul = Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
    extra = Selection.from_operators([ADD, RELU], "selective.toml:targets.t.extra_ops")
    merged = add_mul | extra
    add = merged.operators[ADD]
    assert {str(k) for k in add.kernel_keys} == {"default", "v1/6;0,1|6;0,1|6;0,1|6;0,1"}
    assert add.debug_info == {"add_mul.pte", "selective.toml:targets.t.extra_ops"}
    assert list(merged.operators) == sorted(merged.operators)
    assert (merged | Selection(include_all_operators=True)).include_all_operators


def test_merge_is_order_independent_byte_for_byte() -> None:
    a = Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
    b = Selection.from_model(read_model_ops(example_pte("mlp")), "mlp.pte")
    c = Selection.from_operators([ADD], "manual")
    assert (a | b | c).to_yaml() == (c | b | a).to_yaml()


def test_yaml_round_trip(tmp_path: Path) -> None:
    selection = Selection.from_model(read_model_ops(example_pte("mlp")), "mlp.pte") | (
        Selection.from_operators([ADD], "manual")
    )
    path = tmp_path / "selected_operators.yaml"
    path.write_text(selection.to_yaml())
    assert read_selection(path) == selection


def test_reads_a_hand_written_selection_with_torchgen_defaults(tmp_path: Path) -> None:
    path = tmp_path / "selected_operators.yaml"
    path.write_text("operators:\n  aten::add.out: {}\n")
    op = read_selection(path).operators[ADD]
    assert op.kernel_keys == {KernelKey.default()}
    assert op.include_all_overloads  # torchgen's default when the key is absent


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("operators:\n  add.out: {}\n", "operator 'add.out' has no namespace"),
        (
            "operators:\n  aten::add.out: {}\net_kernel_metadata:\n  aten::add.out: [v2/6;0]\n",
            "kernel key 'v2/6;0' is not 'default', 'v1' or 'v1/...'",
        ),
        ("- a\n", "expected a mapping at the top level"),
        ("operators: [\n", "invalid YAML"),
    ],
)
def test_bad_selection_yaml(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "sel.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        read_selection(path)
    assert str(caught.value).startswith(f"{path}: {problem}")


def test_provenance_is_kept_per_kernel_key() -> None:
    add_mul = Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
    multi = Selection.from_model(read_model_ops(example_pte("multi_method")), "multi_method.pte")
    extra = Selection.from_operators([ADD], "selective.toml:targets.t.extra_ops")
    provenance = (add_mul | multi | extra).provenance().to_dict()["aten::add.out"]
    float_2d = "v1/6;0,1|6;0,1|6;0,1|6;0,1"
    assert provenance["default"] == ["selective.toml:targets.t.extra_ops"]
    assert provenance[float_2d] == ["add_mul.pte", "multi_method.pte"]
    long_keys = [key for key in provenance if key.startswith("v1/4;")]
    assert long_keys and all(provenance[key] == ["multi_method.pte"] for key in long_keys)


GELU = OperatorName.parse("aten::gelu.out")


def gelu_selection(dtype: ScalarType, source: str) -> Selection:
    key = KernelKey.parse(f"v1/{dtype.number};0,1|{dtype.number};0,1|{dtype.number};0,1")
    return Selection({GELU: SelectedOperator(GELU, frozenset({key}), frozenset({source}))})


def test_our_stage_file_keeps_every_keys_sources_where_the_yaml_cannot(tmp_path: Path) -> None:
    selection = gelu_selection(ScalarType.Float, "a.pte") | gelu_selection(ScalarType.Long, "b.pte")
    long_key = KernelKey.parse("v1/4;0,1|4;0,1|4;0,1")
    assert selection.operators[GELU].sources_of(long_key) == {"b.pte"}
    path = tmp_path / "selection.json"
    path.write_text(selection.to_json())
    assert Selection.read(path) == selection
    assert Selection.read(path).to_json() == selection.to_json()
    # ExecuTorch's YAML records who selected the operator, not with which key.
    (tmp_path / "selected.yaml").write_text(selection.to_yaml())
    from_yaml = read_selection(tmp_path / "selected.yaml")
    assert from_yaml.operators[GELU].sources_of(long_key) == {"a.pte", "b.pte"}


def test_stage_file_round_trip_of_every_kind_of_source() -> None:
    selection = (
        Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
        | Selection.from_model(read_model_ops(example_pte("multi_method")), "multi_method.pte")
        | Selection.from_operators([ADD, RELU], "selective.toml:targets.t.extra_ops")
        | Selection.from_op_dtypes({"aten::add.out": ["Long"]}, "op_dtypes")
        | Selection(
            {RELU: SelectedOperator(RELU, frozenset(), frozenset({"hand"}), False, False, False)},
            include_all_operators=True,
        )
    )
    again = Selection.from_json(selection.to_json(), "selection.json")
    assert again == selection
    assert again.provenance() == selection.provenance()
    assert again.to_yaml() == selection.to_yaml()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[]", "not a selection file: top level: expected a mapping, got a list"),
        ("{", "not a selection file: Expecting property name enclosed in double quotes"),
        ('{"operators": {}}', "not a selection file: top level: no 'include_all_operators'"),
        (
            '{"include_all_operators": false, "operators": {"aten::add.out": {}}}',
            "not a selection file: operators.'aten::add.out': no 'kernel_keys'",
        ),
        (
            '{"include_all_operators": false, "operators": {"add": {}}}',
            "not a selection file: operator 'add' has no namespace",
        ),
    ],
)
def test_bad_stage_file_is_one_line_naming_it(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "selection.json"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        Selection.read(path)
    assert str(caught.value).startswith(f"{path}: {problem}")
