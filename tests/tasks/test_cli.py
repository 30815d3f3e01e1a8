from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from selective_build.tasks.cli import enter_manifest_folder, find_manifest, main, version_text


@pytest.fixture
def here(tmp_path: Path) -> Iterator[Path]:
    """A working folder that is restored after the test (the search may change it)."""
    before = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(before)


def test_the_nearest_manifest_above_is_found(tmp_path: Path) -> None:
    (tmp_path / "selective.toml").write_text("")
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "selective.toml").mkdir()  # a folder is no manifest
    assert find_manifest(tmp_path / "a" / "b") == tmp_path / "selective.toml"
    assert find_manifest(tmp_path) == tmp_path / "selective.toml"


def test_the_command_runs_where_the_manifest_is(here: Path) -> None:
    (here / "selective.toml").write_text("")
    (here / "sub").mkdir()
    os.chdir(here / "sub")
    args = enter_manifest_folder(["-n", "2", "build=out", "list"])
    assert Path(os.getcwd()) == here
    assert args == ["-n", "2", f"build={here / 'sub' / 'out'}", "list"]  # still below sub/


def test_a_given_manifest_is_not_searched_for(here: Path) -> None:
    assert enter_manifest_folder(["manifest=x.toml"]) == ["manifest=x.toml"]
    assert Path(os.getcwd()) == here


def test_no_manifest_is_one_line_naming_the_folder(here: Path) -> None:
    assert enter_manifest_folder(["list"]) == (
        f"error: no selective.toml in {here} or any folder above it: write one there,"
        " or name one with manifest=PATH"
    )
    assert enter_manifest_folder(["help"]) == ["help"]


def test_version_and_help(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert version_text().startswith("selective-build ") and "(doit 0.37.0)" in version_text()
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == version_text() + "\n"
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("selective-build ") and "manifest=PATH" in text
    assert "selective-build list " in text  # doit's commands follow
