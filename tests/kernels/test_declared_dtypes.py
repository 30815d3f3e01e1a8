"""kernels/common/declared_dtypes.h: a kernel reads what its functions.yaml entry declares
(Note [Declared dtypes]) as constant expressions, from the header codegen renders for its
source; asking for anything the entry does not declare stops the compile.

What tests/kernels/test_dtype_lists.py held by reading the kernels' C++ back (that an
entry's `dtypes:` and its kernel's dispatch agree) holds by construction now: the dispatch
is the entry's, through this header, and nothing is written twice."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codegen.kernel_library import read_kernel_library
from codegen.render import render_declared_dtypes
from codegen.scalar_type import ScalarType
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
    "arguments",
    ['"aten::dropout.out"', f'"{OP}", "p"', f'"{OP}", "out2"'],
    ids=["another operator", "not a tensor argument", "no such argument"],
)
def test_what_the_entry_does_not_declare_stops_the_compile(tmp_path: Path, arguments: str) -> None:
    result = compile_unit(
        tmp_path, f"constexpr rt::DtypeSet kAsked = kernels::declared_dtypes({arguments});\n"
    )
    assert result.returncode != 0
    assert "no_such_operator_or_tensor_argument_in_functions_yaml" in result.stderr
