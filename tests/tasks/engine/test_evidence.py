"""The up-to-date stamp's evidence of files, and the reads of task creators that feed it."""

from __future__ import annotations

import os
from pathlib import Path

from selective_build.tasks.engine.evidence import Evidence, Reads


def test_a_file_seen_twice_unchanged_is_consistent_evidence(tmp_path: Path) -> None:
    evidence = Evidence()
    path = tmp_path / "a"
    path.write_text("x")
    evidence.stat(str(path))
    evidence.stat(str(path))
    evidence.stat(str(tmp_path / "missing"))
    assert evidence.consistent
    assert evidence.stamps[str(tmp_path / "missing")] is None


def test_a_file_that_moves_while_checked_spoils_the_evidence(tmp_path: Path) -> None:
    evidence = Evidence()
    path = tmp_path / "a"
    path.write_text("x")
    evidence.stat(str(path))
    os.utime(path, ns=(0, path.stat().st_mtime_ns + 1_000_000))
    evidence.stat(str(path))
    assert not evidence.consistent


def test_a_read_is_stamped_and_a_missing_file_too(tmp_path: Path) -> None:
    evidence = Evidence()
    reads = Reads(evidence)
    present = tmp_path / "resolution.json"
    present.write_text("{}")
    assert reads.text(present) == "{}"
    assert reads.text(tmp_path / "absent.json") is None
    assert not reads.exists(tmp_path / "absent.h")
    assert evidence.stamps[str(present)] is not None
    assert evidence.stamps[str(tmp_path / "absent.json")] is None
    assert str(tmp_path / "absent.h") in evidence.stamps and evidence.consistent
