from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.schema import Argument, SchemaType, parse_schema

ROOT = Path(__file__).parents[2]
# Written by tools/executorch_schemas.py from torch 2.13 + ExecuTorch 1.5.1: every operator
# of ExecuTorch's portable functions.yaml, its quantized.yaml and its prim operators.
EXECUTORCH_SCHEMAS = Path(__file__).parent / "data" / "executorch_schemas.txt"
# Operators of our libraries that ExecuTorch's lists lack: ATen overloads the portable YAML
# does not name (their schemas are torch's own, as the script printed them), and the prim
# operators ExecuTorch registers only in C++ (their layouts are what its emitter writes).
NOT_IN_EXECUTORCH_LISTS = {
    "aten::all.all_out": "all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::all.dims_out": "all.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    # Not in ExecuTorch's portable YAML (its exporter decomposes them); MobileNetV3 uses them.
    "aten::hardsigmoid.out": "hardsigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::hardswish.out": "hardswish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::round.decimals_out": "round.decimals_out(Tensor self, *, int decimals, "
    "Tensor(a!) out) -> Tensor(a!)",
    "aten::sort.values": "sort.values(Tensor self, int dim=-1, bool descending=False, *, "
    "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "aten::sort.values_stable": "sort.values_stable(Tensor self, *, bool? stable, int dim=-1, "
    "bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> "
    "(Tensor(a!) values, Tensor(b!) indices)",
    "aten::triu.out": "triu.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)",
    "executorch_prim::floordiv.int": "executorch_prim::floordiv.int(SymInt a, SymInt b) -> SymInt",
    "executorch_prim::mod.int": "executorch_prim::mod.int(SymInt a, SymInt b) -> SymInt",
    "executorch_prim::et_view.default": "executorch_prim::et_view.default(Tensor self, "
    "SymInt[] size) -> Tensor",
    "executorch_prim::et_copy_index.tensor": "executorch_prim::et_copy_index.tensor("
    "Tensor(a!) copy_to, Tensor copy_from, SymInt index) -> ()",
}


def executorch_schemas() -> dict[str, str]:
    lines = EXECUTORCH_SCHEMAS.read_text().splitlines()
    return {str(parse_schema(line).name): line for line in lines}


def test_every_executorch_schema_parses_and_prints_back() -> None:
    schemas = executorch_schemas()
    assert len(schemas) == 252
    for text in schemas.values():
        assert str(parse_schema(text)) == text


@pytest.mark.parametrize("library", ["portable", "prim", "quantized"])
def test_library_schemas_are_executorchs(library: str) -> None:
    schemas = executorch_schemas()
    path = ROOT / "kernels" / library / "functions.yaml"
    kernels = read_kernel_library(library, path, path.parent).kernels
    assert kernels
    for kernel in kernels:
        op = str(kernel.op)
        expected = schemas.get(op) or parse_schema(NOT_IN_EXECUTORCH_LISTS[op]).text()
        assert kernel.schema.text() == expected


def test_types_defaults_and_out_arguments() -> None:
    schema = parse_schema(
        "convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, "
        "SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, "
        "SymInt groups, *, Tensor(a!) out) -> Tensor(a!)"
    )
    assert str(schema.name) == "aten::convolution.out"
    bias, stride = schema.arguments[2], schema.arguments[3]
    assert bias.type == SchemaType("Tensor", optional=True) and bias.type.element == "Tensor"
    assert stride.type == SchemaType("SymInt", is_list=True)
    assert schema.out_arguments == (
        Argument("out", SchemaType("Tensor", alias="a", mutable=True), None, kwarg_only=True),
    )
    assert schema.has_return_slot

    index = parse_schema(
        "index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)"
    )
    assert index.arguments[1].type.element == "Tensor?[]"
    assert not index.arguments[1].type.optional

    pool = parse_schema(
        "avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
        "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, "
        "Tensor(a!) out) -> Tensor(a!)"
    )
    assert pool.arguments[2].type.list_size == 2 and pool.arguments[2].default == "[]"
    assert pool.arguments[6].type == SchemaType("int", optional=True)
    assert parse_schema("f.x(int[]? dim=None) -> ()").arguments[0].type.optional

    split = parse_schema(
        "split_with_sizes_copy.out(Tensor self, SymInt[] split_sizes, int dim=0, *, "
        "Tensor(a!)[] out) -> ()"
    )
    assert split.returns == () and split.has_return_slot
    assert split.out_arguments[0].type.element == "Tensor[]"

    # A written argument that is not keyword-only is no out argument, and with nothing
    # returned the call lists no return value (et_copy_index).
    copy = parse_schema(NOT_IN_EXECUTORCH_LISTS["executorch_prim::et_copy_index.tensor"])
    assert copy.out_arguments == () and not copy.has_return_slot


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("add.out", "is not of the form name(arguments) -> returns"),
        ("add.out(Tensor self, Tensr other) -> Tensor", "unknown type 'Tensr'"),
        ("add.out(Tensor self, Tensor self) -> Tensor", "names an argument twice"),
        ("add.out(Tensor self, *, *, Tensor other) -> Tensor", "has two '*'"),
        ("add.out(Tensor) -> Tensor", "argument 'Tensor' is not 'Type name[=default]'"),
        ("add.out(int[2 x) -> Tensor", "unbalanced brackets"),
        ("add(Tensor self, ) -> Tensor", "empty argument"),
        ("add(Tensor self) -> Tensor 1x", "return 'Tensor 1x' is not 'Type [name]'"),
        ("add!(Tensor self) -> Tensor", "is not a valid ns::name.overload identifier"),
    ],
)
def test_bad_schemas_are_named(text: str, problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_schema(text)
    assert problem in str(caught.value), caught.value
