"""The dtype lists a kernel source dispatches on, read from its C++ text.

A kernel names what it implements as the first argument of `rt::DtypeDispatch<supported,
selected>`, where `selected` is `rt::selected_dtypes(kOp)` of the operator it serves (or a
`constexpr rt::DtypeSet` initialised from it), or as the third argument of
`context.check_dtype(kOp, dtype, supported, enabled)`. The selection may also be a template
parameter: an operator name (`template <const char* const* kName>`, `*kName`) or selected
bits (`template <uint32_t kSelectedBits>`); the template then serves every operator the
source instantiates it with (`T<&kOp>`, `T<rt::selected_dtypes(kOp).bits()>`, or a
parameter passed on from an enclosing template of the same kind). Such templates and named
sets may live in the kernel's own headers under `kernels/` (its `#include`s, followed).

This module evaluates those constant expressions over the named sets of
`runtime/kernel/dtype_set.h`, so the test can compare them with `functions.yaml`'s
`dtypes:` without compiling. It understands only the forms the kernels use (`|`, `&`,
parentheses, `.bits()`, `DtypeSet::all()`, `DtypeSet::of(...)`, named sets) and raises
`ValueError` on anything else: a kernel written another way fails the test loudly instead
of being skipped. The one form passed over is a dispatch in a header whose selection is
neither an operator's nor a template parameter (binary_op.h's compute dispatch, derived
from and narrower than the dispatch a kernel hands it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from codegen.scalar_type import ScalarType

DtypeNames = frozenset[str]

_STRING = re.compile(r'constexpr\s+const\s+char\s*\*\s*(\w+)\s*=\s*"([^"]+)"\s*;')
_SET = re.compile(r"constexpr\s+(?:rt::)?DtypeSet\s+(\w+)\s*=\s*([^;]+);")
# A set kept as its bits (`constexpr uint32_t kMaskBits = ....bits();`), read as the set.
_BITS = re.compile(r"constexpr\s+uint32_t\s+(\w+)\s*=\s*([^;]+\.bits\(\))\s*;")
_DISPATCH = re.compile(r"DtypeDispatch\s*<")
_SELECTED = re.compile(r"^(?:rt::)?selected_dtypes\(\s*(\*?\w+)\s*\)$")
_INCLUDE = re.compile(r'^#include\s+"(kernels/[^"]+)"', re.MULTILINE)
_CHECK = re.compile(r"check_dtype\s*\(")
# A template over an operator: its parameter (kName or kSelectedBits) and what it declares.
_TEMPLATE = re.compile(
    r"template\s*<\s*(?:const\s+char\s*\*\s*const\s*\*|uint32_t)\s+(\w+)\s*>\s*"
    r"(?:(?:struct|class)\s+(\w+)|using\s+(\w+)\s*=|[\w:&*<>,\s]*?\b(\w+)\s*\()"
)
_TOKEN = re.compile(r"\s*(::|\(|\)|\||&|\.|\*|\w+)")
# DtypeSet::all(): bits 0 to kNumScalarTypes - 1 (30, runtime/core/scalar_type.h).
_ALL = frozenset(t.name for t in ScalarType if t.number < 30)


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise ValueError(f"cannot read {text[position:]!r}")
        tokens.append(match.group(1))
        position = match.end()
    return tokens


class _Expression:
    """A recursive-descent reader of one DtypeSet expression (`a | b & c` as in C++)."""

    def __init__(self, text: str, names: Mapping[str, DtypeNames]) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.names = names
        self.at = 0

    def value(self) -> DtypeNames:
        result = self._or()
        if self.at != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.at]!r} in {self.text!r}")
        return result

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self, *expected: str) -> str:
        token = self._peek()
        if token is None or (expected and token not in expected):
            raise ValueError(f"expected {' or '.join(expected) or 'more'} in {self.text!r}")
        self.at += 1
        return token

    def _or(self) -> DtypeNames:
        result = self._and()
        while self._peek() == "|":
            self._take("|")
            result = result | self._and()
        return result

    def _and(self) -> DtypeNames:
        result = self._postfix()
        while self._peek() == "&":
            self._take("&")
            result = result & self._postfix()
        return result

    def _postfix(self) -> DtypeNames:
        result = self._primary()
        while self._peek() == ".":  # `.bits()` is the same set as a mask
            self._take(".")
            self._take("bits")
            self._take("(")
            self._take(")")
        return result

    def _primary(self) -> DtypeNames:
        if self._peek() == "(":
            self._take("(")
            result = self._or()
            self._take(")")
            return result
        path = [self._take()]
        while self._peek() == "::":
            self._take("::")
            path.append(self._take())
        if path[0] == "rt":
            path = path[1:]
        if path == ["DtypeSet", "all"]:
            self._take("(")
            self._take(")")
            return _ALL
        if path == ["DtypeSet", "of"]:
            self._take("(")
            dtype = [self._take()]
            while self._peek() == "::":
                self._take("::")
                dtype.append(self._take())
            self._take(")")
            if dtype[-2:-1] != ["ScalarType"] or dtype[-1] not in _ALL:
                raise ValueError(f"{'::'.join(dtype)} is not a ScalarType in {self.text!r}")
            return frozenset({dtype[-1]})
        if len(path) == 1 and path[0] in self.names:
            return self.names[path[0]]
        raise ValueError(f"unknown dtype set {'::'.join(path)!r} in {self.text!r}")


def evaluate(text: str, names: Mapping[str, DtypeNames]) -> DtypeNames:
    """The dtype names of a constant DtypeSet expression; ValueError when not understood."""
    return _Expression(text, names).value()


def named_sets(header: Path) -> dict[str, DtypeNames]:
    """The `constexpr DtypeSet kX = ...;` sets a header defines, in order."""
    names: dict[str, DtypeNames] = {}
    for name, expression in _SET.findall(header.read_text()):
        names[name] = evaluate(expression, names)
    return names


def _arguments(text: str, start: int, close: str) -> tuple[list[str], int]:
    """The comma-separated arguments from `start` to the `close` bracket at depth 0, and
    the position after it; parentheses and angle brackets of templates nest."""
    depth, begin, arguments = 0, start, []
    for position in range(start, len(text)):
        char = text[position]
        if char in "(<" and not (char == "<" and close == ")"):
            depth += 1
        elif char == close and depth == 0:
            arguments.append(text[begin:position].strip())
            return arguments, position + 1
        elif char in ")>" and not (char == ">" and close == ")"):
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[begin:position].strip())
            begin = position + 1
    raise ValueError(f"cannot read the arguments at {text[start : start + 80]!r}")


@dataclass
class _Source:
    """A kernel source with the headers it includes: what the dispatches are read from."""

    text: str  # the source's own text
    headers: list[str]  # the text of each kernels/ header it includes, transitively
    operators: dict[str, str]  # string constant -> operator name
    names: dict[str, DtypeNames]  # the named sets in scope
    selections: dict[str, str]  # a constant DtypeSet -> the operator constant it selects
    # A template over an operator -> the dtypes its dispatches support.
    templates: dict[str, DtypeNames] = field(default_factory=dict)
    own_templates: set[str] = field(default_factory=set)  # declared in the source itself
    # What is found: operator name -> the dtypes dispatched for it.
    result: dict[str, DtypeNames] = field(default_factory=dict)

    def add(self, op: str, dtypes: DtypeNames) -> None:
        self.result[op] = self.result.get(op, frozenset()) | dtypes


def included_headers(source: Path, include_root: Path) -> list[str]:
    """The text of every `kernels/` header `source` includes, transitively."""
    return _headers(source.read_text(), include_root, set())


def _headers(text: str, include_root: Path | None, seen: set[Path]) -> list[str]:
    if include_root is None:
        return []
    texts: list[str] = []
    for include in _INCLUDE.findall(text):
        path = include_root / include
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        header = path.read_text()
        texts += [*_headers(header, include_root, seen), header]
    return texts


def dispatched_dtypes(
    source: Path, names: Mapping[str, DtypeNames], include_root: Path | None = None
) -> dict[str, DtypeNames]:
    """Per operator name, the union of the supported sets of its DtypeDispatch lists.

    An operator is known by the string constant its `selected_dtypes(...)` reads; a
    dispatch of the source whose selection is not an operator's is an error, not skipped.
    `#include "kernels/..."` headers are read from `include_root` (none: not followed).
    """
    try:
        text = source.read_text()
        return _dispatched(text, _headers(text, include_root, set()), names)
    except ValueError as error:
        raise ValueError(f"{source.name}: {error}") from None


def _dispatched(
    text: str, headers: list[str], names: Mapping[str, DtypeNames]
) -> dict[str, DtypeNames]:
    found = _Source(text, headers, dict(_STRING.findall(text)), dict(names), {})
    for body in [*headers, text]:
        for name, expression in [*_SET.findall(body), *_BITS.findall(body)]:
            selected = _SELECTED.match(expression.strip())
            if selected:
                found.selections[name] = selected.group(1)
            else:
                found.names[name] = evaluate(expression, found.names)
    for body in [*headers, text]:
        for match in _DISPATCH.finditer(body):
            (supported, selection), _ = _pair(body, match.end(), ">")
            _dispatch(found, body, match.start(), supported, selection, body is text)
    for match in _CHECK.finditer(text):
        arguments, _ = _arguments(text, match.end(), ")")
        if len(arguments) == 4 and arguments[0] in found.operators:
            found.add(found.operators[arguments[0]], evaluate(arguments[2], found.names))
    for template, dtypes in found.templates.items():
        ops = _served(found, template)
        if not ops and template in found.own_templates:  # a header's may go unused
            raise ValueError(f"{template} is not instantiated with operator names")
        for op in ops:
            found.add(op, dtypes)
    return found.result


def _pair(text: str, start: int, close: str) -> tuple[tuple[str, str], int]:
    arguments, end = _arguments(text, start, close)
    if len(arguments) != 2:
        raise ValueError(f"cannot read the DtypeDispatch at {text[start : start + 80]!r}")
    return (arguments[0], arguments[1]), end


def _dispatch(
    found: _Source, body: str, start: int, supported: str, selection: str, own: bool
) -> None:
    """Records one `DtypeDispatch<supported, selection>` found at `start` of `body`."""
    selection = selection.removesuffix(".bits()").strip()
    direct = _SELECTED.match(selection)
    variable = direct.group(1) if direct else found.selections.get(selection, selection)
    if variable in found.operators:
        found.add(found.operators[variable], evaluate(supported, found.names))
        return
    template = _enclosing(body, start, variable.removeprefix("*"))
    if template is not None:
        dtypes = evaluate(supported, found.names)
        found.templates[template] = found.templates.get(template, frozenset()) | dtypes
        if own:
            found.own_templates.add(template)
    elif own:
        raise ValueError(f"DtypeDispatch selects {selection!r}, no operator's")


def _enclosing(body: str, start: int, parameter: str) -> str | None:
    """The template declaring `parameter` nearest before `start` in `body`."""
    declared = [m for m in _TEMPLATE.finditer(body, 0, start) if m.group(1) == parameter]
    if not declared:
        return None
    match = declared[-1]
    return next(name for name in match.groups()[1:] if name)


def _served(found: _Source, template: str, depth: int = 0) -> list[str]:
    """The operators `template` is instantiated with, following parameters passed on."""
    if depth > 8:
        raise ValueError(f"{template}: templates instantiated through too many levels")
    ops: list[str] = []
    for body in [*found.headers, found.text]:
        for match in re.finditer(rf"\b{template}\s*<", body):
            arguments, _ = _arguments(body, match.end(), ">")
            if len(arguments) != 1:
                continue  # not an instantiation over one operator (a declaration)
            ops += _argument_ops(found, body, match.start(), arguments[0], depth)
    return list(dict.fromkeys(ops))


def _argument_ops(found: _Source, body: str, start: int, argument: str, depth: int) -> list[str]:
    pointer = re.fullmatch(r"&\s*(\w+)", argument)
    bits = re.fullmatch(r"(?:rt::)?selected_dtypes\(\s*(\w+)\s*\)(?:\.bits\(\))?", argument)
    named = pointer or bits
    if named is not None:
        constant = named.group(1)
        if constant not in found.operators:
            raise ValueError(f"{constant} is not an operator name")
        return [found.operators[constant]]
    outer = _enclosing(body, start, argument) if re.fullmatch(r"\w+", argument) else None
    if outer is None:
        return []  # a declaration's own parameter list, or a type argument
    return _served(found, outer, depth + 1)
