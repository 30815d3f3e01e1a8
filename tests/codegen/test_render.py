"""Golden tests of the generated C++ (set UPDATE_GOLDEN=1 to rewrite the expected files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codegen.kernel_library import read_kernel_library
from codegen.model import KernelKey, OperatorName
from codegen.pte import read_model_ops
from codegen.render import GENERATED_FILES, render_sources
from codegen.resolution import resolve
from codegen.selection import Selection
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
