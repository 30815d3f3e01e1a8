"""kernels/common/declared_dtypes.h: a kernel reads what its functions.yaml entry declares
(Note [Declared dtypes]) as constant expressions, from the header codegen renders for its
source; asking for an argument its schema has not stops the compile.

What tests/kernels/test_dtype_lists.py held by reading the kernels' C++ back (that an
entry's `dtypes:` and its kernel's dispatch agree) holds by construction now: the dispatch
is the entry's, through this header, and nothing is written twice."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.render import render_declared_dtypes
from selective_build.codegen.scalar_type import ScalarType
from tests.workspace import REPO

PORTABLE = REPO / "kernels" / "portable"
LIBRARY = read_kernel_library("portable", PORTABLE / "functions.yaml", PORTABLE)
SOURCE = PORTABLE / "op_native_dropout.cpp"
OP = "aten::native_dropout.out"


def compile_unit(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """`body` after the header, compiled against SOURCE's generated declared_op_dtypes.h."""
    (tmp_path / "declared_op_dtypes.h").write_text(render_declared_dtypes(LIBRARY, SOURCE))
    unit = tmp_path / "unit.cpp"
    unit.write_text('#include "kernels/common/declared_dtypes.h"\n' + body)
    command = ["c++", "-std=c++17", "-fsyntax-only", f"-I{REPO}", f"-I{tmp_path}", str(unit)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def mask(dtypes: frozenset[ScalarType]) -> str:
    return f"0x{sum(1 << dtype.number for dtype in dtypes):08x}u"


def test_an_entry_s_dtypes_are_what_the_kernel_reads(tmp_path: Path) -> None:
    [kernel] = [k for k in LIBRARY.kernels if k.source == SOURCE]
    assert kernel.declared is not None and kernel.declared.of("out1") == {ScalarType.Bool}
    result = compile_unit(
        tmp_path,
        f'static_assert(kernels::declared_dtypes("{OP}").bits() == '
        f"{mask(kernel.declared.dtypes)});\n"
        f'static_assert(kernels::declared_dtypes("{OP}", "input").bits() == '
        f"{mask(kernel.declared.dtypes)});\n"
        f'static_assert(kernels::declared_dtypes("{OP}", "out1").bits() == '
        f"{mask(kernel.declared.of('out1'))});\n",
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "argument", ["p", "out2"], ids=["not a tensor argument", "no such argument"]
)
def test_an_argument_the_schema_has_not_stops_the_compile(tmp_path: Path, argument: str) -> None:
    result = compile_unit(
        tmp_path,
        f'constexpr rt::DtypeSet kAsked = kernels::declared_dtypes("{OP}", "{argument}");\n',
    )
    assert result.returncode != 0
    assert "not_a_tensor_argument_of_the_schema" in result.stderr


def test_an_operator_the_library_leaves_out_declares_none(tmp_path: Path) -> None:
    # A library may reuse a kernel source and serve only some of its operators.
    body = 'static_assert(kernels::declared_dtypes("aten::dropout.out").bits() == 0);\n'
    assert compile_unit(tmp_path, body).returncode == 0
