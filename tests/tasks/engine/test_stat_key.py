"""Note [Stat key]: which stat data vouch for a file's content, and when they are racy."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from selective_build.tasks.engine import stat_key
from tests.tasks.engine.conftest import Settle


def test_an_edit_of_the_same_size_with_its_mtime_restored_moves_the_key(
    tmp_path: Path, settle: Settle
) -> None:
    source, edited = tmp_path / "op_add.cpp", tmp_path / "edited.cpp"
    source.write_text("return op_mul(alpha, y);\n")
    before = settle(source)
    edited.write_text("return op_mul(alpha, x);\n")
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))  # `touch -r`
    shutil.copy2(edited, source)  # `cp -p`: the mtime is restored, the ctime is not
    after = source.stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
    assert not stat_key.same(list(stat_key.key(before)), after)


def test_a_file_replaced_by_another_moves_the_key(tmp_path: Path, settle: Settle) -> None:
    path, other = tmp_path / "a", tmp_path / "b"
    path.write_text("x")
    other.write_text("x")
    before = settle(path)
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, path)
    assert stat_key.key(path.stat())[3] != before.st_ino
    assert not stat_key.same(stat_key.key(before), path.stat())


def test_a_key_taken_as_its_file_changes_is_racy_and_not_trusted(
    tmp_path: Path, settle: Settle
) -> None:
    path = tmp_path / "a"
    path.write_text("x")
    key = stat_key.key(path.stat())
    changed = max(key[0], key[1])
    assert stat_key.racy(key, now_ns=changed + 1_000_000)
    assert not stat_key.racy(key, now_ns=changed + 1_000_000_000)
    assert stat_key.trusted_key(settle(path)) == stat_key.key(path.stat())


def test_a_filesystem_of_whole_seconds_has_a_wider_window() -> None:
    whole = (5_000_000_000, 5_000_000_000, 1, 2, 3)
    assert stat_key.racy(whole, now_ns=6_000_000_000)
    assert not stat_key.racy(whole, now_ns=7_500_000_000)


def test_only_a_recorded_key_equal_in_every_field_vouches(tmp_path: Path) -> None:
    path = tmp_path / "a"
    path.write_text("x")
    status = path.stat()
    recorded = list(stat_key.key(status))  # as it comes back from JSON
    assert stat_key.same(recorded, status)
    assert not stat_key.same(None, status)
    assert not stat_key.same([*recorded[:4], recorded[4] + 1], status)
