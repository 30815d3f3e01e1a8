"""The generated registration of a target's kernels with ExecuTorch's runtime (golden text;
set UPDATE_GOLDEN=1 to rewrite it). tests/runtime/test_executorch_adapter.py compiles and
runs what it generates."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.executorch.install import ExecutorchInstall
from selective_build.codegen.executorch.registration import (
    EXECUTORCH_PRIM_OPS,
    REGISTRATION_FILE,
    render_executorch_sources,
)
from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.render import render_sources
from selective_build.codegen.resolution import resolve
from selective_build.codegen.selection import Selection, read_selection
from tests.conftest import example_pte
from tests.executorch_install import executorch_install

__all__ = ["executorch_install"]

DATA = Path(__file__).parent / "data" / "kernels"
GOLDEN = Path(__file__).parent / "golden"
REPO = Path(__file__).resolve().parent.parent.parent


def selection(*extra: str) -> Selection:
    model = Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte")
    names = ("custom::scale.out", *extra)
    return model | Selection.from_operators([OperatorName.parse(op) for op in names], "manual")


def rendered() -> dict[str, str]:
    library = read_kernel_library("testlib", DATA / "functions.yaml", DATA)
    prim = read_kernel_library("prim", REPO / "kernels/prim/functions.yaml", REPO / "kernels/prim")
    return render_executorch_sources(resolve(selection("aten::sym_size.int"), [library, prim], "g"))


def test_registration_matches_golden() -> None:
    text = rendered()[REGISTRATION_FILE]
    golden = GOLDEN / REGISTRATION_FILE
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


def test_rendering_is_deterministic() -> None:
    assert rendered() == rendered()


def test_the_rest_is_our_runtimes_rendering() -> None:
    """The typed declarations and dtype headers are our own build's, so the kernel sources
    compile unchanged; our registry's table and its size header are not needed."""
    library = read_kernel_library("testlib", DATA / "functions.yaml", DATA)
    ours = render_sources(resolve(selection(), [library], "golden"))
    files = rendered()
    registry = {"selected_kernels.cpp", "selected_registry_size.h"}
    assert set(files) == {REGISTRATION_FILE} | (set(ours) - registry)
    for name, text in files.items():
        if name != REGISTRATION_FILE:
            assert text == ours[name], name


def test_executorchs_own_prim_ops_are_not_registered_again() -> None:
    text = rendered()[REGISTRATION_FILE]
    assert "sym_size" not in text
    assert '"aten::add.out"' in text and '"custom::scale.out"' in text


def test_a_specialized_key_is_registered_under_executorchs_key() -> None:
    text = rendered()[REGISTRATION_FILE]
    assert (
        'executorch::runtime::Kernel("aten::mul.out", '
        'executorch::runtime::KernelKey("v1/6;0,1|6;0,1|6;0,1|6;0,1"),'
    ) in text


def test_a_specialized_key_of_a_list_taking_operator_is_refused(tmp_path: Path) -> None:
    """ExecuTorch's runtime leaves tensor lists out of the key it looks up: such a kernel
    would never be found, so the build says so."""
    (tmp_path / "functions.yaml").write_text(
        "- func: cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  type_alias: {T0: [Float]}\n  dim_order_alias: {D0: [0]}\n"
        "  kernels:\n"
        "    - {arg_meta: null, kernel_name: t::cat_out}\n"
        "    - {arg_meta: {tensors: [T0, D0], out: [T0, D0], ret: [T0, D0]},"
        " kernel_name: t::cat_float}\n"
    )
    (tmp_path / "op_cat.cpp").write_text("")
    (tmp_path / "model.yaml").write_text(
        "et_kernel_metadata:\n  aten::cat.out: [v1/6;0|6;0|6;0]\n"
        "operators:\n  aten::cat.out: {debug_info: [m.pte]}\n"
    )
    library = read_kernel_library("t", tmp_path / "functions.yaml", tmp_path)
    chosen = resolve(read_selection(tmp_path / "model.yaml"), [library], "x")
    with pytest.raises(InputError) as error:
        render_executorch_sources(chosen)
    assert str(error.value) == (
        "kernel library t: aten::cat.out: a kernel registered for a specialized key cannot "
        "be found by ExecuTorch's runtime, whose keys leave tensor lists out; serve the "
        'operator with a default kernel (arg_meta: null) on runtime = "executorch" targets'
    )


def test_the_prim_ops_left_out_are_those_the_wheel_registers(
    executorch_install: ExecutorchInstall,
) -> None:
    """Each name is in libexecutorch.so, which registers it when loaded; and there are 28,
    as ExecuTorch 1.5.1's register_prim_ops.cpp has."""
    library = executorch_install.runtime_library.read_bytes()
    assert len(EXECUTORCH_PRIM_OPS) == 28
    for op in EXECUTORCH_PRIM_OPS:
        assert str(op).encode() + b"\0" in library, op


def test_a_fully_delegated_target_registers_nothing() -> None:
    """A program whose every operator runs in a delegate selects no kernel: the file still
    compiles (no empty array)."""
    ops = Selection.from_model(read_model_ops(example_pte("xnn_conv")), "xnn_conv.pte")
    library = read_kernel_library("testlib", DATA / "functions.yaml", DATA)
    text = render_executorch_sources(resolve(ops, [library], "x"))[REGISTRATION_FILE]
    assert "kKernels" not in text and "register_selected" not in text
    assert "// No kernel: every operator" in text
