"""A no-op `doit build` answered from one file of stamps, before doit loads any task.

Note [Up-to-date stamp]
doit decides that a build has nothing to do by loading every task (~250 for the default
manifest) and checking each one against its database: about 0.3 ms a task, twice the cost
of starting Python and importing doit. Yet that decision depends only on
  - the task definitions: our code, the manifest, and what the task creators read or list
    (each target's resolution.json, the template and runtime source folders);
  - doit's database (the saved state and values of every task);
  - the files the checks look at: each `file_dep`, each target's existence, each header of
    a compiler depfile.
So when a run of `doit build` finds every task up to date (or, having run some, finds
them all up to date when it checks them again: tasks/engine/recheck.py), it writes
build/.up-to-date.json with the stat key of each of those files as the checks saw it
(Note [Stat key] in tasks/engine/stat_key.py), and of the database after doit closed it; a
file whose key is racy is hashed too, and the next run compares its content. The next `doit build`
stats those files first; when none moved, doit would decide the same again from the same
evidence, so it prints the same verdict and exits. Any difference (an edit, a touch,
`doit forget` or `clean`, a deleted output, another manifest, another doit or Python)
falls through to doit as usual.

A file seen with two different stamps by one round of checks makes the evidence
inconsistent and no stamp is written; nor is one after a run that failed, ignored a task
or was interrupted. Only the plain forms of the command take the shortcut: `doit`,
`doit build`, `doit run build`, with `manifest=...` and `-n N` (tasks/engine/loader.py
tells them from doit's parsed command line). This module imports little: it runs before
the task modules (and their manifest parser) are imported.

The evidence of what the task definitions were made from is complete by construction: the
code and configuration are stamped when the run starts, and a task creator reads any other
file through the run's `Reads` (tasks/engine/evidence.py), which stamps it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import doit

from selective_build.codegen.writer import write_if_changed
from selective_build.tasks import layout
from selective_build.tasks.config import manifest_path
from selective_build.tasks.engine import stat_key
from selective_build.tasks.engine.checker import hash_file
from selective_build.tasks.engine.evidence import Stamp, stamp_of, stat_or_none
from selective_build.tasks.engine.run import Run

FORMAT = 2

# What the task definitions are made of, besides the manifest: stamped at the start of
# every run, before the task modules are read.
CONFIG_FILES = (Path("dodo.py"), Path("doit.cfg"), Path("pyproject.toml"))


class NothingToDo(Exception):
    """The stamp answers for doit: every task is up to date (the message says so)."""


def stamp_file() -> Path:
    return layout.up_to_date_stamp()


def _definition_files() -> list[str]:
    """The files and folders the task definitions are read or listed from."""
    paths = [str(manifest_path()), *(str(path) for path in CONFIG_FILES)]
    for folder in (layout.tasks_dir(), layout.codegen_dir()):
        paths += sorted(str(path) for path in folder.rglob("*.py"))  # subpackages too
    for folder in (layout.codegen_dir() / "templates", layout.runtime_dir()):  # globbed
        paths += sorted(root for root, _, _ in os.walk(folder))
    return paths


def stamp_definitions(run: Run) -> None:
    """Start of every run: stamp the code and configuration the tasks are defined by."""
    for path in _definition_files():
        run.definitions.stat(path)


def _key() -> dict[str, Any]:
    """What must be equal besides the files: the run's manifest, interpreter, doit, and
    which copy of our code runs (the stamped files are that copy's: another checkout
    importable from the same folder, through PYTHONPATH or an editable install, is other
    code whose files the stamp never saw)."""
    return {
        "format": FORMAT,
        "cwd": os.getcwd(),
        "code": str(layout.source_root().resolve()),
        "manifest": str(manifest_path()),
        "build": str(layout.build()),
        "python": sys.version,
        "executable": sys.executable,
        "doit": list(doit.__version__),
    }


def _read() -> dict[str, Any] | None:
    try:
        document = json.loads(stamp_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def _unchanged(stamps: dict[str, Any], hashed: dict[str, Any]) -> bool:
    for path, recorded in stamps.items():
        expected = tuple(recorded) if isinstance(recorded, list) else recorded
        if stamp_of(stat_or_none(path)) != expected:
            return False
    return all(_hash_or_none(path) == digest for path, digest in hashed.items())


def _vouches(recorded: Any) -> bool:
    """Whether a stamped key, seen unchanged just now, is no longer racy."""
    return isinstance(recorded, list) and not stat_key.racy(tuple(recorded))


def _hash_or_none(path: str) -> str | None:
    """The digest of a file's content, or of a folder's list of names (the definitions
    stamp the folders task creators list); None when it is gone."""
    try:
        if os.path.isdir(path):
            names = "\0".join(sorted(os.listdir(path)))
            return hashlib.md5(names.encode()).hexdigest()
        return hash_file(path)
    except OSError:
        return None


def _racy_digests(files: dict[str, Stamp]) -> dict[str, str] | None:
    """The content digest of each file whose key is racy (Note [Stat key]); None when one
    moved while it was read (the evidence then holds no more)."""
    digests = {}
    for path, stamp in files.items():
        if stamp is not None and stat_key.racy(stamp):
            digest = _hash_or_none(path)
            if digest is None or stamp_of(stat_or_none(path)) != stamp:
                return None
            digests[path] = digest
    return digests


def verdict(tasks: int, shortcut: bool) -> str:
    how = " (no input moved since the last check)" if shortcut else ""
    return f"nothing to do: {tasks} tasks up to date{how}\n"


def check(run: Run) -> None:
    """Before a plain build loads its tasks: raise NothingToDo when no stamped file moved
    (the definitions are stamped already). A build folder that cannot be written is
    answered when nothing moved (no build can be changing it), else stops in one line."""
    if not run.plain_build or not stamp_file().exists():
        return
    refused = run.lock.try_hold()  # a build running now may be changing the stamped files
    tasks = _answer(run)
    if tasks is not None:
        run.lock.release()
        raise NothingToDo(verdict(tasks, shortcut=True))
    if refused is not None:
        print(refused, file=sys.stderr)
        raise SystemExit(2)


def _answer(run: Run) -> int | None:
    """The number of tasks up to date, when the stamp answers for doit."""
    document = _read()
    if document is None or document.get("key") != _key():
        return None
    stamps, hashed, tasks = document.get("files"), document.get("hashed"), document.get("tasks")
    if not (isinstance(stamps, dict) and isinstance(hashed, dict) and isinstance(tasks, int)):
        return None
    if not (run.definitions.consistent and _unchanged(stamps, hashed)):
        return None
    if hashed and all(_vouches(stamps.get(path)) for path in hashed):
        # The racy files are as stamped, and their keys vouch for them from now on.
        with contextlib.suppress(OSError):
            write_if_changed(stamp_file(), json.dumps({**document, "hashed": {}}) + "\n")
    return tasks


def record(run: Run, tasks: int) -> None:
    """A plain `doit build` found all `tasks` up to date, or checked them again after
    running some (tasks/engine/recheck.py): write the stamps of what the checks saw.

    doit has closed its database by now, so its stamp is the one the next run will see.
    """
    checks, definitions = run.checks, run.definitions
    # A file both read for the definitions and checked must have been seen alike (e.g. a
    # resolution.json rewritten after the tasks were made from it).
    agree = all(
        checks.stamps.get(path, stamp) == stamp for path, stamp in definitions.stamps.items()
    )
    if not (checks.consistent and definitions.consistent and agree and run.plain_build):
        return
    database = {str(layout.dep_file()): stamp_of(stat_or_none(str(layout.dep_file())))}
    files = {**definitions.stamps, **checks.stamps, **database}
    hashed = _racy_digests(files)
    if hashed is None:
        return
    document = {
        "key": _key(),
        "tasks": tasks,
        "files": dict(sorted(files.items())),
        "hashed": dict(sorted(hashed.items())),
    }
    with contextlib.suppress(OSError):  # a full disk: the next no-op goes to doit
        write_if_changed(stamp_file(), json.dumps(document) + "\n")
