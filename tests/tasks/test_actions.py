"""Subprocess actions: outputs appear whole or not at all, and a missing tool is one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tasks.actions import run_to_temporaries, temporary


def writer(output: Path, exit_code: int = 0) -> list[str]:
    """A command that writes `output`'s temporary, then exits with `exit_code`."""
    code = f"open({str(temporary(output))!r}, 'w').write('new'); raise SystemExit({exit_code})"
    return [sys.executable, "-c", code]


def test_a_finished_command_moves_its_output_into_place(tmp_path: Path) -> None:
    output = tmp_path / "out" / "a.o"
    assert run_to_temporaries(writer(output), [output])
    assert output.read_text() == "new" and not temporary(output).exists()


def test_a_failed_command_leaves_the_old_output_and_no_temporary(tmp_path: Path) -> None:
    output = tmp_path / "a.o"
    output.write_text("old")
    assert not run_to_temporaries(writer(output, exit_code=1), [output])
    assert output.read_text() == "old" and not temporary(output).exists()


def test_a_missing_compiler_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "a.o"
    assert not run_to_temporaries(["no-such-compiler-here", "-c", "x.cpp"], [output])
    error = capsys.readouterr().err
    assert error == "error: cannot run 'no-such-compiler-here': No such file or directory\n"
