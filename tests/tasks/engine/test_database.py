"""doit's database in the build folder: a damaged file answers nothing, says so in one line,
and is replaced by a sound one when the run saves (tasks/engine/database.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from doit.dependency import JSONCodec

from selective_build.tasks.engine.database import BuildDatabase


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def saved(path: Path, records: dict[str, dict[str, object]]) -> None:
    database = BuildDatabase(str(path), JSONCodec())
    for task, values in records.items():
        for key, value in values.items():
            database.set(task, key, value)
    database.dump()


@pytest.mark.parametrize(
    "damage",
    [lambda data: data[: len(data) // 2], lambda data: b"\x13" * len(data)],
    ids=["truncated", "overwritten"],
)
def test_a_damaged_file_answers_nothing_and_is_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Callable[[bytes], bytes]
) -> None:
    path = tmp_path / "build" / ".doit.sqlite3"
    saved(path, {f"compile:{n}": {"deps:": ["a.cpp"]} for n in range(200)})
    path.write_bytes(damage(path.read_bytes()))
    database = BuildDatabase(str(path), JSONCodec())
    assert database.get("compile:7", "deps:") is None
    warning = capsys.readouterr().err
    assert warning.startswith(f"warning: {path} is damaged (") and warning.count("\n") == 1
    database.set("link:add_mul", "deps:", ["x.o"])
    database.dump()
    reopened = BuildDatabase(str(path), JSONCodec())
    assert reopened.get("link:add_mul", "deps:") == ["x.o"]
    assert capsys.readouterr().err == ""
