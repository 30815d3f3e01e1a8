"""Reading and writing the YAML files of ExecuTorch's formats.

Every YAML input goes through `load_yaml`: the path must be a regular file of a bounded
size, anchors and aliases are refused (a few hundred bytes of nested aliases expand to
gigabytes), and any fault is one line naming the file (with line and column for a syntax
error). PyYAML is imported on first use: doit imports this package for every command,
most of which never read a YAML file (a no-op build among them).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, TypeVar

from selective_build.codegen.errors import InputError
from selective_build.codegen.paths import require_regular_file
from selective_build.codegen.yaml_emit import dump_plain

# Far above any real functions.yaml or selected_operators.yaml (ExecuTorch's own
# functions.yaml is ~40 KB): a YAML input larger than this is a mistake, not a schema.
MAX_YAML_BYTES = 64 << 20


def load_yaml(path: Path) -> object:
    """The document in `path`; InputError naming the file when it cannot be read."""
    import yaml

    require_regular_file(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_YAML_BYTES + 1)
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None
    if len(data) > MAX_YAML_BYTES:
        raise InputError(path, f"larger than {MAX_YAML_BYTES >> 20} MiB: not a YAML input")
    try:
        return yaml.load(data.decode("utf-8"), Loader=_loader())
    except UnicodeDecodeError:
        raise InputError(path, "not UTF-8 text") from None
    except yaml.MarkedYAMLError as error:
        raise InputError(path, _one_line(error)) from None
    except yaml.YAMLError as error:
        raise InputError(path, f"invalid YAML: {' '.join(str(error).split())}") from None
    except RecursionError:
        raise InputError(path, "invalid YAML: nested too deeply") from None


def _one_line(error: Any) -> str:
    """`invalid YAML at line L, column C: problem`, without PyYAML's source excerpt."""
    mark = error.problem_mark or error.context_mark
    problem = " ".join(str(error.problem or error.context or "syntax error").split())
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return f"invalid YAML{where}: {problem}"


@functools.cache
def _loader() -> type:
    """A safe loader that refuses anchors and aliases at the event that carries them."""
    import yaml

    class NoAliasLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            peek: Any = self.peek_event  # PyYAML's methods are untyped
            event = peek()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise yaml.composer.ComposerError(
                    None, None, "anchors and aliases are not accepted", event.start_mark
                )
            return super().compose_node(parent, index)

    return NoAliasLoader


T = TypeVar("T")
_KINDS = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean", int: "an integer"}


def kind(value: object) -> str:
    """What a YAML value is, for an error message."""
    return "null" if value is None else _KINDS.get(type(value), type(value).__name__)


def expect(value: object, expected: type[T], key: str) -> T:
    """`value` when it is a `expected` (a boolean is no integer); ValueError naming `key`."""
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise ValueError(f"{key}: expected {_KINDS[expected]}, got {kind(value)}")
    return value


def strings(value: object, key: str) -> list[str]:
    """A list of strings, each item checked (an item that is not a string is an error, never
    turned into text)."""
    items = expect(value, list, key)
    return [expect(item, str, f"{key}[{index}]") for index, item in enumerate(items)]


def dump_yaml(document: object) -> str:
    """Block-style YAML with sorted keys, as ExecuTorch's tools write it."""
    text = dump_plain(document)  # the same bytes, without importing PyYAML
    if text is not None:
        return text
    import yaml

    dumped: str = yaml.safe_dump(document, default_flow_style=False, sort_keys=True)
    return dumped
