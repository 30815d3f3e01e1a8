"""Golden tests of the generated C++ (set UPDATE_GOLDEN=1 to rewrite the expected files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.render import GENERATED_FILES, render_declared_dtypes, render_sources
from selective_build.codegen.resolution import resolve
from selective_build.codegen.selection import Selection
from tests.conftest import example_pte

DATA = Path(__file__).parent / "data" / "kernels"
GOLDEN = Path(__file__).parent / "golden"


def rendered() -> dict[str, str]:
    model = Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
    extra = Selection.from_operators([OperatorName.parse("custom::scale.out")], "manual")
    library = read_kernel_library("testlib", DATA / "functions.yaml", DATA)
    return render_sources(resolve(model | extra, [library], "golden"))


@pytest.mark.parametrize("name", GENERATED_FILES)
def test_generated_source_matches_golden(name: str) -> None:
    text = rendered()[name]
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


def test_rendering_is_deterministic() -> None:
    assert rendered() == rendered()


def test_specialised_key_is_a_string_literal() -> None:
    text = rendered()["selected_kernels.cpp"]
    key = KernelKey.parse("v1/6;0,1|6;0,1|6;0,1|6;0,1")
    layout = '"\\004Aself\\0Aother\\0Aout\\0A"'
    row = f'{{"aten::mul.out", "{key}", &unbox_testlib__fast__mul_out_float, {layout}}},'
    assert row in text


def test_each_kernel_source_gets_a_header_with_only_its_operators() -> None:
    """Note [Per-source dtype headers]."""
    files = rendered()
    per_source = {name for name in files if name.startswith("ops/")}
    assert per_source == {
        f"ops/kernels/op_{op}/selected_op_variants.h" for op in ("add", "mul", "scale")
    }
    mul = files["ops/kernels/op_mul/selected_op_variants.h"]
    assert '"aten::mul.out"' in mul and '"aten::add.out"' not in mul


def test_a_source_s_declared_dtypes_header(tmp_path: Path) -> None:
    """Note [Declared dtypes]: per operator of the source, its `dtypes:` (argument "") and
    each tensor argument's; every dtype for an entry without `dtypes:`."""
    for name in ("op_dropout.cpp", "op_scale.cpp"):
        (tmp_path / name).write_text("")
    (tmp_path / "functions.yaml").write_text(
        "- func: dropout.out(Tensor input, float p, *, Tensor(a!) out0, Tensor(b!) out1)"
        " -> (Tensor(a!), Tensor(b!))\n"
        "  dtypes: [Float, Half]\n  argument_dtypes: {out1: [Bool]}\n"
        "  kernels: [{arg_meta: null, kernel_name: lib::dropout_out}]\n"
        "- func: custom::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  kernels: [{arg_meta: null, kernel_name: lib::scale_out}]\n"
    )
    library = read_kernel_library("lib", tmp_path / "functions.yaml", tmp_path)
    text = render_declared_dtypes(library, tmp_path / "op_dropout.cpp")
    rows = [line.strip() for line in text.splitlines() if line.startswith("    {")]
    assert rows == [
        '{"aten::dropout.out", "", rt::DtypeSet(0x00000060u)},  // Half, Float',
        '{"aten::dropout.out", "input", rt::DtypeSet(0x00000060u)},  // Half, Float',
        '{"aten::dropout.out", "out0", rt::DtypeSet(0x00000060u)},  // Half, Float',
        '{"aten::dropout.out", "out1", rt::DtypeSet(0x00000800u)},  // Bool',
    ]
    assert "library lib" in text.splitlines()[0]
    every = render_declared_dtypes(library, tmp_path / "op_scale.cpp")
    # DtypeSet::all(): ScalarTypes 0 to 29.
    assert '{"custom::scale.out", "", rt::DtypeSet(0x3fffffffu)},  // every dtype' in every
