"""Which dtype a kernel's template instantiation is for, read from its mangled name.

Kernels instantiate their inner loops once per element type (`binary_row<Add, float>`).
The Itanium mangling spells each template argument: builtin types as one letter (`f`),
our 16-bit floats as names (`N2rt4HalfE`). This is a deliberately small scanner, not a
demangler: it walks the name, skips identifiers by their length prefix and literals
(`Lj64E`), and collects the element types that appear among template arguments. A
symbol naming exactly one element type is attributed to it; anything else stays shared.
"""

from __future__ import annotations

from selective_build.codegen.scalar_type import ScalarType

_BUILTIN = {
    "f": ScalarType.Float,
    "d": ScalarType.Double,
    "a": ScalarType.Char,
    "h": ScalarType.Byte,
    "s": ScalarType.Short,
    "i": ScalarType.Int,
    "l": ScalarType.Long,
    "x": ScalarType.Long,
    "b": ScalarType.Bool,
}
_NAMED = {"Half": ScalarType.Half, "BFloat16": ScalarType.BFloat16}
_OPENERS = {"I", "N", "Z"}


def template_dtypes(mangled: str) -> frozenset[ScalarType]:
    """Element types among the template arguments of `mangled` (empty when none or unsure)."""
    if not mangled.startswith("_Z"):
        return frozenset()
    found: set[ScalarType] = set()
    stack: list[str] = []
    text, i = mangled, 2
    while i < len(text):
        char = text[i]
        if char.isdigit():
            start = i
            while i < len(text) and text[i].isdigit():
                i += 1
            length = int(text[start:i])
            name = text[i : i + length]
            if "I" in stack and name in _NAMED:
                found.add(_NAMED[name])
            i += length
            continue
        if char in _OPENERS:
            stack.append(char)
        elif char == "E":
            if stack:
                stack.pop()
        elif char == "L" and stack and stack[-1] == "I":
            i = _skip_past(text, i, "E")  # a literal value, e.g. Lj64E
            continue
        elif char in ("S", "T"):
            i = _skip_substitution(text, i)
            continue
        elif char in ("C", "D") and i + 1 < len(text) and text[i + 1] in "123F":
            i = _skip_past(text, i, "_") if text[i + 1] == "F" else i + 2
            continue
        elif stack and stack[-1] == "I" and char in _BUILTIN:
            found.add(_BUILTIN[char])
        i += 1
    return frozenset(found)


def _skip_past(text: str, i: int, end: str) -> int:
    close = text.find(end, i + 1)
    return len(text) if close < 0 else close + 1


def _skip_substitution(text: str, i: int) -> int:
    """Skip `S_`, `S3_`, `T_`, `T0_`, or the two-letter std abbreviations (`St`, `Sa`...)."""
    if i + 1 < len(text) and (text[i + 1].isdigit() or text[i + 1].isupper() or text[i + 1] == "_"):
        return _skip_past(text, i, "_")
    return i + 2
