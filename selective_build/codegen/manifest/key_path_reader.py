"""Reading a parsed TOML document with the key path of every value at hand.

Each check raises one `InputError` naming the file and the key path
(`targets.tiny.models[1]`); relative paths are relative to the file's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import OperatorName
from selective_build.codegen.paths import not_a_regular_file
from selective_build.codegen.toml_kind import kind
from selective_build.codegen.units import parse_size

# Names become file names under build/: a short, portable character set.
MAX_NAME_LENGTH = 64
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*", re.ASCII)

T = TypeVar("T")


class KeyPathReader:
    """Checks values of the document read from `path`, keeping key paths for messages."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.root = path.parent

    def fail(self, key: str, problem: str) -> InputError:
        return InputError(self.path, f"{key}: {problem}" if key else problem)

    def table(
        self, value: object, key: str, allowed: set[str], required: set[str]
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {kind(value)}")
        for name in value:
            if name not in allowed:
                raise self.fail(
                    join(key, name), f"unknown key (allowed: {', '.join(sorted(allowed))})"
                )
        for name in sorted(required):
            if name not in value:
                raise self.fail(join(key, name), "missing required key")
        return value

    def typed(self, value: object, key: str, kind_: type[T]) -> T:
        # bool is an int in Python; a manifest's `true` is never a count.
        if not isinstance(value, kind_) or (kind_ is int and isinstance(value, bool)):
            raise self.fail(key, f"expected {kind_.__name__}, got {kind(value)}")
        return value

    def strings(self, value: object, key: str) -> tuple[str, ...]:
        items = self.typed(value, key, list)
        return tuple(self.typed(item, f"{key}[{i}]", str) for i, item in enumerate(items))

    def name(self, value: str, key: str) -> str:
        if len(value) > MAX_NAME_LENGTH:
            raise self.fail(
                key, f"name of {len(value)} characters is longer than {MAX_NAME_LENGTH}"
            )
        if not _NAME.fullmatch(value):
            raise self.fail(key, f"name {value!r} may use only letters, digits, '_' and '-'")
        return value

    def existing_file(self, value: object, key: str) -> Path:
        path = self.root / self.typed(value, key, str)
        problem = not_a_regular_file(path)
        if problem is not None:
            raise self.fail(key, f"file {path} {problem}")
        return path

    def existing_files(self, value: object, key: str) -> tuple[Path, ...]:
        """An array of paths, each an existing file."""
        paths = self.strings(value, key)
        return tuple(self.existing_file(path, f"{key}[{i}]") for i, path in enumerate(paths))

    def existing_dir(self, value: object, key: str) -> Path:
        path = self.root / self.typed(value, key, str)
        if not os.path.isdir(path):
            problem = not_a_regular_file(path) or "is a file"
            raise self.fail(key, f"directory {path} {problem}")
        return path

    def named_tables(
        self, document: dict[str, Any], key: str, parse: Callable[[str, object, str], T]
    ) -> dict[str, T]:
        tables = self.typed(document.get(key, {}), key, dict)
        return {
            self.name(name, join(key, name)): parse(name, value, join(key, name))
            for name, value in tables.items()
        }

    def operator(self, text: str, key: str) -> OperatorName:
        try:
            return OperatorName.parse(text)
        except ValueError as error:
            raise self.fail(key, str(error)) from None

    def size(self, value: object, key: str) -> int:
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            raise self.fail(key, f'expected a size such as "24 KiB", got {kind(value)}')
        try:
            return parse_size(value)
        except ValueError as error:
            raise self.fail(key, str(error)) from None


def join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name
