"""The run's checker: a file touched without a change is hashed once, a changed one is
caught (also when its size and mtime are restored: Note [Stat key]), the digests outlive the
process, and every look at a file is the run's evidence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from selective_build.tasks.engine import checker, stat_key
from selective_build.tasks.engine.checker import CachedMD5Checker, DigestCache
from selective_build.tasks.engine.run import Run
from tests.tasks.engine.conftest import Settle


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


def test_an_edit_keeping_size_and_mtime_is_detected(
    tmp_path: Path, hashes: list[str], run: Run, settle: Settle
) -> None:
    source = tmp_path / "op_add.cpp"
    source.write_text("return op_mul(alpha, y);\n")
    md5 = CachedMD5Checker(run)
    before = settle(source)
    state = md5.get_state(str(source), None)
    source.write_text("return op_mul(alpha, x);\n")
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `cp -p` or `touch -r`
    assert md5.check_modified(str(source), os.stat(source), state)


def test_an_untouched_file_is_not_hashed(
    tmp_path: Path, hashes: list[str], run: Run, settle: Settle
) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    settle(model)
    state = CachedMD5Checker(run).get_state(str(model), None)
    hashes.clear()
    for _ in range(3):
        assert not CachedMD5Checker(Run()).check_modified(str(model), os.stat(model), state)
    assert hashes == []


def test_a_state_saved_without_a_key_is_a_doubt(
    tmp_path: Path, hashes: list[str], run: Run, settle: Settle
) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    status = settle(model)
    old_state = (status.st_mtime, status.st_size, checker.hash_file(str(model)))
    hashes.clear()
    assert not CachedMD5Checker(run).check_modified(str(model), status, old_state)
    assert hashes == [str(model)]


def test_cache_survives_the_process(
    tmp_path: Path, hashes: list[str], run: Run, settle: Settle
) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"z" * 10)
    run.digests.digest(str(model), settle(model))
    run.finish()
    reloaded = DigestCache(tmp_path / "digests.json")
    reloaded.digest(str(model), os.stat(model))
    assert len(hashes) == 1


def test_a_racy_key_is_not_saved(tmp_path: Path, racy: None, run: Run) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    md5 = CachedMD5Checker(run)
    state = md5.get_state(str(model), None)
    assert state[3] is None  # the next look hashes
    assert not md5.check_modified(str(model), os.stat(model), state)


def test_a_racy_digest_serves_its_run_only(
    tmp_path: Path, hashes: list[str], racy: None, run: Run
) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"z" * 10)
    run.digests.digest(str(model), os.stat(model))
    run.digests.digest(str(model), os.stat(model))
    run.finish()
    DigestCache(tmp_path / "digests.json").digest(str(model), os.stat(model))
    assert len(hashes) == 2


def test_what_the_checker_looks_at_is_the_runs_evidence(tmp_path: Path, run: Run) -> None:
    present, missing = tmp_path / "present", tmp_path / "missing"
    present.write_text("x")
    md5 = CachedMD5Checker(run)
    assert md5.exists(str(present)) and not md5.exists(str(missing))
    assert set(run.checks.stamps) == {str(present), str(missing)}
    assert Run().checks.stamps == {}  # another run shares none of it


def test_a_racy_digest_is_kept_once_its_key_settled(
    tmp_path: Path, hashes: list[str], run: Run, settle: Settle, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"z" * 10)
    window = stat_key._FINE_WINDOW_NS
    monkeypatch.setattr(stat_key, "_FINE_WINDOW_NS", 1 << 62)  # hashed as it was written
    run.digests.digest(str(model), os.stat(model))
    monkeypatch.setattr(stat_key, "_FINE_WINDOW_NS", window)
    settle(model)
    run.finish()  # hashed again: the same, and its key vouches for it now
    DigestCache(tmp_path / "digests.json").digest(str(model), os.stat(model))
    assert len(hashes) == 2
