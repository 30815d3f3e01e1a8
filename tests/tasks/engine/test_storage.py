"""A write the build folder refuses, in one line naming the file and what to do (Note
[Unwritable build folder] in tasks/engine/storage.py)."""

from __future__ import annotations

import errno
import os

from selective_build.tasks.engine import storage


def refused(code: int, name: str) -> OSError:
    return OSError(code, os.strerror(code), name)


def test_a_full_disk_and_a_read_only_folder_are_one_line_each() -> None:
    assert storage.problem(refused(errno.ENOSPC, "build/add_mul/size.json")) == (
        "error: cannot write build/add_mul/size.json: No space left on device:"
        " free some space on its disk, then build again"
    )
    assert storage.problem(refused(errno.EROFS, "build/.doit.lock")) == (
        "error: cannot write build/.doit.lock: Read-only file system:"
        " make the build folder writable, or build elsewhere with build=DIR"
    )


def test_any_other_error_is_not_ours_to_word() -> None:
    assert storage.problem(refused(errno.ENOENT, "kernels/x.cpp")) is None


def test_a_tool_that_ran_out_of_space_is_one_line() -> None:
    log = "Assembler messages:\nFatal error: can't write 12 bytes: No space left on device\n"
    assert storage.full_device_line(log, "build/x.o") == (
        "error: cannot write build/x.o: No space left on device:"
        " free some space on its disk, then build again"
    )
    assert storage.full_device_line("error: 'op_sub' was not declared", "build/x.o") is None
