from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.kernel_library import KernelLibrary, read_kernel_library
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.render import render_sources
from selective_build.codegen.resolution import resolve
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.selection import SelectedOperator, Selection, read_selection
from tests.workspace import REPO

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


BITWISE_AND = OperatorName.parse("aten::bitwise_and.Tensor_out")
BOOL_KEY = KernelKey.parse("v1/11;0,1|11;0,1|11;0,1")
FLOAT_BOOL_KEY = KernelKey.parse("v1/6;0,1|11;0,1|11;0,1")


def dtype_library(tmp_path: Path, name: str, dtypes: str | None) -> KernelLibrary:
    """A library with one default bitwise_and kernel, declaring `dtypes` when given."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "op_bitwise_and.cpp").write_text("")
    declared = f"  dtypes: {dtypes}\n" if dtypes is not None else ""
    (folder / "functions.yaml").write_text(
        "- func: bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) "
        f"-> Tensor(a!)\n{declared}"
        f"  kernels: [{{arg_meta: null, kernel_name: {name}::bitwise_and_out}}]\n"
    )
    return read_kernel_library(name, folder / "functions.yaml", folder)


def test_undeclared_dtype_fails_naming_operator_dtype_and_models(tmp_path: Path) -> None:
    libraries = [dtype_library(tmp_path, "ints", "[Byte, Int, Long, Bool]")]
    wanted = (
        selection(BITWISE_AND, BOOL_KEY, source="a.pte")
        | selection(BITWISE_AND, FLOAT_KEY, source="b.pte")
        | selection(BITWISE_AND, FLOAT_BOOL_KEY, source="c.pte")
    )
    with pytest.raises(InputError) as caught:
        resolve(wanted, libraries, "tiny")
    assert str(caught.value) == (
        "target tiny: no kernel library implements 1 selected operator key(s): "
        "aten::bitwise_and.Tensor_out [dtype Float] (needed by b.pte, c.pte)"
    )


def test_later_library_serves_a_dtype_the_first_does_not_declare(tmp_path: Path) -> None:
    libraries = [
        dtype_library(tmp_path, "ints", "[Long, Bool]"),
        dtype_library(tmp_path, "floats", "[Float, Bool]"),
    ]
    resolution = resolve(selection(BITWISE_AND, BOOL_KEY, FLOAT_BOOL_KEY), libraries, "t")
    assert sorted(k.function for k in resolution.kernels) == [
        "floats::bitwise_and_out",
        "ints::bitwise_and_out",
    ]


def test_two_default_kernels_of_one_operator_form_a_chain_in_precedence_order(
    tmp_path: Path,
) -> None:
    libraries = [
        dtype_library(tmp_path, "fast", "[Float]"),
        dtype_library(tmp_path, "any", None),
    ]
    resolution = resolve(selection(BITWISE_AND, FLOAT_KEY, BOOL_KEY), libraries, "t")
    chain = resolution.chains[BITWISE_AND]
    assert [k.function for k in chain] == ["fast::bitwise_and_out", "any::bitwise_and_out"]
    assert resolution.registry_slots == 1
    # Float alone: the first library serves every key, no chain.
    alone = resolve(selection(BITWISE_AND, FLOAT_KEY), libraries, "t")
    assert alone.chains == {} and [k.function for k in alone.kernels] == ["fast::bitwise_and_out"]


def test_each_library_of_a_chain_keeps_only_the_dtypes_it_serves(tmp_path: Path) -> None:
    """Note [Dtype fallback chain]: Float goes to fast, Bool to any; neither compiles the
    other's dtype, while the operator's selection (the package's header) keeps both."""
    libraries = [
        dtype_library(tmp_path, "fast", "[Float]"),
        dtype_library(tmp_path, "any", None),
    ]
    resolution = resolve(selection(BITWISE_AND, FLOAT_KEY, BOOL_KEY), libraries, "t")
    fast, wide = resolution.chains[BITWISE_AND]
    assert resolution.kernel_dtypes(fast) == {ScalarType.Float}
    assert resolution.kernel_dtypes(wide) == {ScalarType.Bool}
    assert resolution.op_dtypes[BITWISE_AND] == {ScalarType.Float, ScalarType.Bool}
    files = render_sources(resolution)
    assert (
        "DtypeSet(0x00000040u)},  // Float\n"
        in files["ops/fast/op_bitwise_and/selected_op_variants.h"]
    )
    assert (
        "DtypeSet(0x00000800u)},  // Bool\n"
        in files["ops/any/op_bitwise_and/selected_op_variants.h"]
    )


def test_a_chain_selected_also_by_name_keeps_every_dtype_in_each_library(tmp_path: Path) -> None:
    # A call of any dtype may reach the last kernel of the chain.
    libraries = [
        dtype_library(tmp_path, "fast", "[Float]"),
        dtype_library(tmp_path, "any", None),
    ]
    wanted = selection(BITWISE_AND, FLOAT_KEY, BOOL_KEY, KernelKey.default())
    resolution = resolve(wanted, libraries, "t")
    assert [resolution.kernel_dtypes(k) for k in resolution.chains[BITWISE_AND]] == [None, None]


def test_include_all_chains_a_later_library_for_the_dtypes_the_first_leaves_out(
    tmp_path: Path,
) -> None:
    fast = dtype_library(tmp_path, "fast", "[Float]")
    narrow = dtype_library(tmp_path, "narrow", "[Float]")
    wide = dtype_library(tmp_path, "wide", None)
    everything = Selection(include_all_operators=True)
    chain = resolve(everything, [fast, narrow, wide], "t").chains[BITWISE_AND]
    # narrow adds no dtype fast does not serve: left out.
    assert [k.library for k in chain] == ["fast", "wide"]
    assert resolve(everything, [wide, fast], "t").chains == {}


def test_a_chain_of_different_schemas_is_refused(tmp_path: Path) -> None:
    fast = dtype_library(tmp_path, "fast", "[Float]")
    other = tmp_path / "other"
    other.mkdir()
    (other / "op_bitwise_and.cpp").write_text("")
    (other / "functions.yaml").write_text(
        "- func: bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) output) "
        "-> Tensor(a!)\n  kernels: [{arg_meta: null, kernel_name: other::bitwise_and_out}]\n"
    )
    libraries = [fast, read_kernel_library("other", other / "functions.yaml", other)]
    with pytest.raises(InputError) as caught:
        resolve(selection(BITWISE_AND, FLOAT_KEY, BOOL_KEY), libraries, "t")
    assert str(caught.value) == (
        "kernel library other: aten::bitwise_and.Tensor_out: its func: schema differs from "
        "library fast's; both serve the operator, so they must declare the same schema"
    )


def test_undeclared_dtypes_are_fine_and_name_selection_is_not_checked(tmp_path: Path) -> None:
    undeclared = [dtype_library(tmp_path, "any", None)]
    assert resolve(selection(BITWISE_AND, FLOAT_KEY), undeclared, "t").registry_slots == 1
    ints = [dtype_library(tmp_path, "ints", "[Long]")]
    by_name = selection(BITWISE_AND, KernelKey.default())
    assert resolve(by_name, ints, "t").op_dtypes == {BITWISE_AND: None}


# Example models whose operators no shipped library implements yet, with the reason: strict
# xfails, so the test fails once one resolves and its entry must go. None today (quant_conv
# resolved when the quantized library came).
UNRESOLVED_EXAMPLES: dict[str, str] = {}


@pytest.mark.parametrize(
    "model",
    [
        pytest.param(
            name,
            marks=[pytest.mark.xfail(strict=True, reason=UNRESOLVED_EXAMPLES[name])]
            if name in UNRESOLVED_EXAMPLES
            else [],
        )
        for name in sorted(p.name for p in (REPO / "examples" / "models").iterdir() if p.is_dir())
    ],
)
def test_every_example_model_resolves_against_the_shipped_libraries(model: str) -> None:
    """The `dtypes:` declared in kernels/*/functions.yaml cover every example model (a
    program whose every operator is delegated selects none)."""
    kernels = REPO / "kernels"
    libraries = [
        read_kernel_library(name, kernels / name / "functions.yaml", kernels / name)
        for name in ("portable", "prim", "quantized")
    ]
    wanted = read_selection(REPO / "examples" / "models" / model / "selected_operators.yaml")
    assert len(resolve(wanted, libraries, model).kernels) >= len(wanted.operators) > 0 or (
        not wanted.operators and model.startswith("xnn_")
    )
