"""Reading and writing the JSON files one stage hands to the next.

Each stage file has one codec (a frozen dataclass with `to_json` / `from_json`); they share
the text form written here (sorted keys, two-space indent, a final newline: deterministic,
and readable in a diff) and the one-line error for a file that is not what it should be.
A stage file is written by the build, so a bad one means a stale or hand-edited build
folder: the error names the file, and a rebuild (`doit forget` or `doit clean`) cures it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from selective_build.codegen.errors import InputError

T = TypeVar("T")


def dump_json(document: object) -> str:
    """The text of a stage file."""
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


def member(document: dict[str, object], name: str, where: str) -> object:
    """`document[name]`; ValueError naming `where` when it is missing."""
    if name not in document:
        raise ValueError(f"{where}: no {name!r}")
    return document[name]


def parse_json(text: str, source: str | Path, what: str, build: Callable[[object], T]) -> T:
    """`build` applied to the JSON `text` holds; InputError naming `source` when the text is
    no JSON or `build` finds it is not `what` (a ValueError naming the key path)."""
    try:
        return build(json.loads(text))
    except ValueError as error:  # json.JSONDecodeError is one
        raise InputError(source, f"not {what}: {error}") from None


def read_json(path: Path, what: str, build: Callable[[object], T]) -> T:
    """`parse_json` of the file at `path`; InputError naming it when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(path, f"not {what}: not UTF-8 text") from None
    return parse_json(text, path, what, build)
