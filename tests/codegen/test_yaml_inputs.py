"""Every YAML input (selections, operator schemas, kernel libraries' functions.yaml) is
alias-free, schema-checked and reported in one line (issue 13)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.kernel_library import read_kernel_library, read_schema_operators
from selective_build.codegen.selection import read_selection

# The 726-byte shape: each level doubles the one before (2^30 items if expanded).
ALIAS_BOMB = "a0: &a0 [x, x]\n" + "".join(
    f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 31)
)


def _readers(tmp_path: Path) -> dict[str, Callable[[Path], object]]:
    (tmp_path / "op_add.cpp").write_text("")
    return {
        "selection": read_selection,
        "schema": read_schema_operators,
        "library": lambda path: read_kernel_library("lib", path, tmp_path),
    }


def _error(read: Callable[[Path], object], path: Path) -> str:
    with pytest.raises(InputError) as caught:
        read(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message[len(f"{path}: ") :]


@pytest.mark.parametrize("reader", ["selection", "schema", "library"])
@pytest.mark.parametrize(
    "text",
    [
        ALIAS_BOMB,
        "- &entry {op: add.out, kernels: [{arg_meta: null, kernel_name: t::add}]}\n- *entry\n",
        "operators: &ops {}\nother: *ops\n",
    ],
)
def test_anchors_and_aliases_are_refused(tmp_path: Path, reader: str, text: str) -> None:
    path = tmp_path / "in.yaml"
    path.write_text(text)
    assert "anchors and aliases are not accepted" in _error(_readers(tmp_path)[reader], path)


@pytest.mark.parametrize("reader", ["selection", "schema", "library"])
def test_syntax_error_is_one_line_with_line_and_column(tmp_path: Path, reader: str) -> None:
    path = tmp_path / "in.yaml"
    path.write_text("- op: add.out\n  kernels:\n    - {arg_meta: null\n")
    assert _error(_readers(tmp_path)[reader], path) == (
        "invalid YAML at line 4, column 1: expected ',' or '}', but got '<stream end>'"
    )


@pytest.mark.parametrize("reader", ["selection", "schema", "library"])
@pytest.mark.parametrize("kind", ["is a directory", "is a named pipe", "is a character device"])
def test_paths_that_are_not_files_are_named(tmp_path: Path, reader: str, kind: str) -> None:
    path = {"is a character device": Path("/dev/null")}.get(kind, tmp_path / "in.yaml")
    if kind == "is a directory":
        path.mkdir()
    elif kind == "is a named pipe":
        os.mkfifo(path)
    read = _readers(tmp_path)[reader]
    with pytest.raises(InputError) as caught:
        read(path)
    assert str(caught.value) == f"{path}: {kind}"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "operators:\n  aten::add.out:\n    debug_info: [a.pte, [nested]]\n",
            "operators.'aten::add.out'.debug_info[1]: expected a string, got a list",
        ),
        (
            "operators:\n  aten::add.out: {}\net_kernel_metadata:\n  aten::add.out: [7]\n",
            "et_kernel_metadata.'aten::add.out'[0]: expected a string, got an integer",
        ),
        (
            "operators:\n  aten::add.out: {is_root_operator: 'yes'}\n",
            "operators.'aten::add.out'.is_root_operator: expected a boolean, got a string",
        ),
        ("operators:\n  7: {}\n", "operators.7: expected a string, got an integer"),
        ("operators: [a]\n", "operators: expected a mapping, got a list"),
        ("include_all_operators: 1\n", "include_all_operators: expected a boolean, got an integer"),
        (
            "operators: {}\net_kernel_metadata:\n  aten::mul.out: [default]\n",
            "et_kernel_metadata.'aten::mul.out': not in 'operators'",
        ),
    ],
)
def test_selection_schema(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "selected_operators.yaml"
    path.write_text(text)
    assert _error(read_selection, path) == problem


ADD_FUNC = "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("- op: [add, out]\n", "entry 0: op: expected a string, got a list"),
        ("- func: 7\n", "entry 0: func: expected a string, got an integer"),
        (
            f"- func: {ADD_FUNC}\n  type_alias: {{T0: [Float, [Double]]}}\n"
            "  dim_order_alias: {D0: [0]}\n"
            "  kernels: [{arg_meta: {self: [T0, D0]}, kernel_name: t::add}]\n",
            "entry 0: aten::add.out: type_alias.T0[1]: expected a string, got a list",
        ),
        (
            f"- func: {ADD_FUNC}\n  type_alias: {{T0: [Float]}}\n"
            "  dim_order_alias: {D0: [' 0']}\n"
            "  kernels: [{arg_meta: {self: [T0, D0]}, kernel_name: t::add}]\n",
            "entry 0: aten::add.out: dim_order_alias.D0[0]: expected an integer, got a string",
        ),
        (
            f"- func: {ADD_FUNC}\n  type_alias: {{T0: [Float]}}\n"
            "  dim_order_alias: {D0: [0]}\n"
            "  kernels: [{arg_meta: {self: [T0, 0]}, kernel_name: t::add}]\n",
            "entry 0: aten::add.out: arg_meta.self[1]: expected a string, got an integer",
        ),
    ],
)
def test_library_schema(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "functions.yaml"
    path.write_text(text)
    assert _error(_readers(tmp_path)["library"], path) == problem


def test_a_huge_yaml_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as file:
        file.truncate(1 << 30)  # sparse
    assert _error(read_selection, path) == "larger than 64 MiB: not a YAML input"
