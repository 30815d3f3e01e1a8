"""Block-style YAML of simple documents, byte-identical to PyYAML's, without PyYAML.

`python -m selective_build.codegen.gen_oplist` writes one small YAML per run; importing
PyYAML costs more than reading a 100,000-call program in C (benchmarks/RESULTS.md), so
documents made of mappings, lists, booleans and strings that PyYAML writes plain are written
here, exactly as `yaml.safe_dump(document, default_flow_style=False, sort_keys=True)` writes
them; anything else gives None and the caller uses PyYAML (`codegen.yaml_io.dump_yaml`).
tests/test_yaml_emit.py compares the two on generated documents.
"""

from __future__ import annotations

import re

# Strings PyYAML writes plain in block context, judged without PyYAML: ASCII without
# spaces, quotes or comment marks; starting with a letter, `_` or `/` (no indicator, and no
# number, date or `.inf` a YAML reader would resolve); not ending in `:` (a mapping
# indicator there).
_PLAIN = re.compile(r"[A-Za-z_/][A-Za-z0-9_./;,|:+-]*(?<!:)", re.ASCII)
# Words YAML 1.1 resolves as booleans or null (PyYAML's implicit resolvers), quoted by it.
_RESERVED = frozenset(
    spelling
    for word in ("yes", "no", "true", "false", "on", "off", "null")
    for spelling in (word, word.capitalize(), word.upper())
)
# PyYAML writes a mapping key of 128 characters or more as a complex key (`? key`).
_SIMPLE_KEY_LENGTH = 128


def dump_plain(document: object) -> str | None:
    """`document` (a mapping at the top) as PyYAML writes it, or None when it holds anything
    this module does not write: other types, strings PyYAML would quote, a list in a list
    or a mapping in a list."""
    if not isinstance(document, dict):
        return None
    if not document:
        return "{}\n"
    lines: list[str] = []
    return "".join(lines) if _mapping(document, 0, lines) else None


def _mapping(mapping: dict[object, object], indent: int, lines: list[str]) -> bool:
    keys = [key for key in mapping if isinstance(key, str) and _plain(key)]
    if len(keys) != len(mapping) or any(len(key) >= _SIMPLE_KEY_LENGTH for key in keys):
        return False
    pad = " " * indent
    for key in sorted(keys):
        value = mapping[key]
        if isinstance(value, dict) and value:
            lines.append(f"{pad}{key}:\n")
            if not _mapping(value, indent + 2, lines):
                return False
        elif isinstance(value, list) and value:
            # A list in a mapping is written at the key's indentation ("indentless").
            lines.append(f"{pad}{key}:\n")
            for item in value:
                text = _scalar(item)
                if text is None:
                    return False
                lines.append(f"{pad}- {text}\n")
        else:
            text = _scalar(value)
            if text is None:
                return False
            lines.append(f"{pad}{key}: {text}\n")
    return True


def _scalar(value: object) -> str | None:
    """The text of a scalar or an empty collection; None when PyYAML may write it otherwise."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return value if _plain(value) else None
    if isinstance(value, list) and not value:
        return "[]"
    if isinstance(value, dict) and not value:
        return "{}"
    return None


def _plain(text: str) -> bool:
    return _PLAIN.fullmatch(text) is not None and text not in _RESERVED
