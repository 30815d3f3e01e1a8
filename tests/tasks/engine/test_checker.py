"""The run's checker: a file touched without a change is hashed once, a changed one is
caught, the digests outlive the process, and every look at a file is the run's evidence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tasks.engine import checker
from tasks.engine.checker import CachedMD5Checker, DigestCache
from tasks.engine.run import Run


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = checker.hash_file

    def counting(path: str) -> str:
        calls.append(path)
        return real(path)

    monkeypatch.setattr(checker, "hash_file", counting)
    return calls


@pytest.fixture
def run(tmp_path: Path) -> Run:
    return Run(digests=tmp_path / "digests.json")


def test_touched_unchanged_file_is_hashed_once(tmp_path: Path, hashes: list[str], run: Run) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    md5 = CachedMD5Checker(run)
    state = md5.get_state(str(model), None)
    os.utime(model, (1_000_000, 1_000_000))
    for _ in range(3):  # three later builds, the stored state never refreshed
        assert not md5.check_modified(str(model), os.stat(model), state)
    assert len(hashes) == 2  # once when recorded, once after the touch


def test_changed_content_is_detected(tmp_path: Path, hashes: list[str], run: Run) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    md5 = CachedMD5Checker(run)
    state = md5.get_state(str(model), None)
    model.write_bytes(b"y" * 1000)
    os.utime(model, (2_000_000, 2_000_000))
    assert md5.check_modified(str(model), os.stat(model), state)


def test_cache_survives_the_process(tmp_path: Path, hashes: list[str], run: Run) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"z" * 10)
    run.digests.digest(str(model), os.stat(model))
    run.finish()
    reloaded = DigestCache(tmp_path / "digests.json")
    reloaded.digest(str(model), os.stat(model))
    assert len(hashes) == 1


def test_what_the_checker_looks_at_is_the_runs_evidence(tmp_path: Path, run: Run) -> None:
    present, missing = tmp_path / "present", tmp_path / "missing"
    present.write_text("x")
    md5 = CachedMD5Checker(run)
    assert md5.exists(str(present)) and not md5.exists(str(missing))
    assert set(run.checks.stamps) == {str(present), str(missing)}
    assert Run().checks.stamps == {}  # another run shares none of it
