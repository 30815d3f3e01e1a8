"""Our gen_oplist against what ExecuTorch's wrote for the same inputs (debug_info aside:
ours lists every source, ExecuTorch's only the last)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from selective_build.codegen.gen_oplist import main
from tests.conftest import REPO, example_pte

DATA = Path(__file__).parent / "data" / "gen_oplist"
ADD_MUL = str(example_pte("add_mul"))

CASES: dict[str, list[str]] = {
    "empty": [],
    "ops_dict": [
        "--ops_dict",
        '{"aten::add.out": ["Float", "Long"], "aten::mul.out": [], '
        '"aten::cat.out": ["v1/4;0|4;0|4;0"]}',
    ],
    "root_ops_plus_model": [
        "--root_ops",
        "aten::sub.out,aten::add.out",
        "--model_file_path",
        ADD_MUL,
    ],
    "include_all_plus_model": ["--include-all-operators", "--model_file_path", ADD_MUL],
    "schema_small": ["--ops_schema_yaml_path", str(DATA / "small_functions.yaml")],
    "partial_delegate": ["--model_file_path", str(DATA / "partial_delegate.pte")],
    "full_delegate": ["--model_file_path", str(DATA / "full_delegate.pte")],
    "uncalled_op": ["--model_file_path", str(DATA / "uncalled_op.pte")],
}


def without_debug_info(document: dict[str, Any]) -> dict[str, Any]:
    for info in document["operators"].values():
        del info["debug_info"]
    return document


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_selection_as_executorch(tmp_path: Path, case: str) -> None:
    output = tmp_path / "out.yaml"
    assert main(["--output_path", str(output), *CASES[case]]) == 0
    ours = without_debug_info(yaml.safe_load(output.read_text()))
    theirs = without_debug_info(yaml.safe_load((DATA / f"{case}.yaml").read_text()))
    assert ours == theirs


def test_debug_info_keeps_every_source(tmp_path: Path) -> None:
    output = tmp_path / "out.yaml"
    main(
        ["--output_path", str(output), "--root_ops", "aten::add.out", "--model_file_path", ADD_MUL]
    )
    add = yaml.safe_load(output.read_text())["operators"]["aten::add.out"]
    assert add["debug_info"] == [ADD_MUL, "root_ops"]


def test_output_directory_gets_selected_operators_yaml(tmp_path: Path) -> None:
    assert main(["--output_path", str(tmp_path), "--model_file_path", ADD_MUL]) == 0
    assert (tmp_path / "selected_operators.yaml").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--root_ops", "aten::add.out;aten::mul.out"],
            "gen_oplist: error: --root_ops: operator 'aten::add.out;aten::mul.out' has an invalid "
            "overload name",
        ),
        (["--ops_dict", "{nope"], "gen_oplist: error: --ops_dict: invalid JSON"),
        (
            ["--ops_dict", '{"aten::add.out": ["f16"]}'],
            "gen_oplist: error: --ops_dict: unknown dtype 'f16'",
        ),
        (
            ["--model_file_path", "/nonexistent.pte"],
            "gen_oplist: error: /nonexistent.pte: does not exist",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "selective_build.codegen.gen_oplist",
            "--output_path",
            str(tmp_path / "o.yaml"),
            *args,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(message)


def test_garbage_model_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.pte"
    garbage.write_bytes(bytes(range(256)) * 4)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "selective_build.codegen.gen_oplist",
            "--output_path",
            str(tmp_path / "o.yaml"),
            "--model_file_path",
            str(garbage),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"gen_oplist: error: {garbage}: not a .pte file: identifier b'\\x04\\x05\\x06\\x07' "
        "is not 'ET12'"
    )


def test_output_path_equal_to_an_input_is_refused(tmp_path: Path) -> None:
    """--output_path naming the model (or a schema YAML), by any name: nothing is lost."""
    model = tmp_path / "model.pte"
    model.write_bytes(Path(ADD_MUL).read_bytes())
    schema = tmp_path / "functions.yaml"
    schema.write_text("- op: add.out\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(schema)
    for output, source in ((model, model), (tmp_path / "." / "model.pte", model), (link, schema)):
        before = source.read_bytes()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "selective_build.codegen.gen_oplist",
                "--output_path",
                str(output),
                "--model_file_path",
                str(model),
                "--ops_schema_yaml_path",
                str(schema),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 2
        assert result.stderr == (
            f"gen_oplist: error: {output}: --output_path is the input {source}: "
            "it would be replaced\n"
        )
        assert source.read_bytes() == before


@pytest.mark.parametrize("kind", ["named pipe", "directory"])
def test_inputs_that_are_not_regular_files_are_named(tmp_path: Path, kind: str) -> None:
    """Refused before any open: a pipe would block forever."""
    path = tmp_path / "input"
    if kind == "named pipe":
        os.mkfifo(path)
    else:
        path.mkdir()
    for option in ("--model_file_path", "--ops_schema_yaml_path"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "selective_build.codegen.gen_oplist",
                "--output_path",
                str(tmp_path / "o.yaml"),
                option,
                str(path),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert result.returncode == 2
        assert result.stderr == f"gen_oplist: error: {path}: is a {kind}\n"


def test_ops_dict_items_that_are_not_strings_are_refused(tmp_path: Path) -> None:
    """A dtype given as a number or a list is an error, not turned into text."""
    for items, kind in (("[6]", "an integer"), ('[["Float"]]', "a list")):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "selective_build.codegen.gen_oplist",
                "--output_path",
                str(tmp_path / "o.yaml"),
                "--ops_dict",
                f'{{"aten::add.out": {items}}}',
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 2
        assert result.stderr == (
            f"gen_oplist: error: --ops_dict: 'aten::add.out'[0]: expected a string, got {kind}\n"
        )
        assert not (tmp_path / "o.yaml").exists()
