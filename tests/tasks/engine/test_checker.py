from __future__ import annotations

import os
from pathlib import Path

import pytest

from tasks.engine import checker
from tasks.engine.checker import CachedMD5Checker, _DigestCache


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    calls: list[str] = []
    real = checker.hash_file

    def counting(path: str) -> str:
        calls.append(path)
        return real(path)

    monkeypatch.setattr(checker, "hash_file", counting)
    monkeypatch.setattr(checker, "CACHE", _DigestCache(tmp_path / "digests.json"))
    return calls


def test_touched_unchanged_file_is_hashed_once(tmp_path: Path, hashes: list[str]) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    md5 = CachedMD5Checker()
    state = md5.get_state(str(model), None)
    os.utime(model, (1_000_000, 1_000_000))
    for _ in range(3):  # three later builds, the stored state never refreshed
        assert not md5.check_modified(str(model), os.stat(model), state)
    assert len(hashes) == 2  # once when recorded, once after the touch


def test_changed_content_is_detected(tmp_path: Path, hashes: list[str]) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"x" * 1000)
    md5 = CachedMD5Checker()
    state = md5.get_state(str(model), None)
    model.write_bytes(b"y" * 1000)
    os.utime(model, (2_000_000, 2_000_000))
    assert md5.check_modified(str(model), os.stat(model), state)


def test_cache_survives_the_process(tmp_path: Path, hashes: list[str]) -> None:
    model = tmp_path / "model.pte"
    model.write_bytes(b"z" * 10)
    cache = checker.CACHE
    cache.digest(str(model), os.stat(model))
    cache.save()
    reloaded = _DigestCache(cache.path)
    reloaded.digest(str(model), os.stat(model))
    assert len(hashes) == 1
