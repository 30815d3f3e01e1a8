"""The dtype lists a kernel source dispatches on, read from its C++ text.

A kernel names what it implements as the first argument of `rt::DtypeDispatch<supported,
selected>`, where `selected` is `rt::selected_dtypes(kOp)` of the operator it serves (or a
`constexpr rt::DtypeSet` initialised from it). This module evaluates those constant
expressions over the named sets of `runtime/kernel/dtype_set.h`, so the test can compare
them with `functions.yaml`'s `dtypes:` without compiling. It understands only the forms
the kernels use (`|`, `&`, parentheses, `.bits()`, `DtypeSet::all()`, `DtypeSet::of(...)`,
named sets) and raises `ValueError` on anything else: a kernel written another way fails
the test loudly instead of being skipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from codegen.scalar_type import ScalarType

DtypeNames = frozenset[str]

_STRING = re.compile(r'constexpr\s+const\s+char\s*\*\s*(\w+)\s*=\s*"([^"]+)"\s*;')
_SET = re.compile(r"constexpr\s+(?:rt::)?DtypeSet\s+(\w+)\s*=\s*([^;]+);")
_DISPATCH = re.compile(r"DtypeDispatch\s*<")
_SELECTED = re.compile(r"^(?:rt::)?selected_dtypes\(\s*(\*?\w+)\s*\)$")
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


def _template_arguments(text: str, start: int) -> tuple[str, str]:
    """The two arguments of the template argument list opening just before `start`."""
    depth, split = 0, -1
    for position in range(start, len(text)):
        char = text[position]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            split = position
        elif char == ">" and depth == 0:
            if split < 0:
                break
            return text[start:split].strip(), text[split + 1 : position].strip()
    raise ValueError(f"cannot read the DtypeDispatch at {text[start : start + 80]!r}")


def dispatched_dtypes(source: Path, names: Mapping[str, DtypeNames]) -> dict[str, DtypeNames]:
    """Per operator name, the union of the supported sets of its DtypeDispatch lists.

    An operator is known by the string constant its `selected_dtypes(...)` reads; a
    dispatch whose selection is not an operator's is an error, not skipped.
    """
    try:
        return _dispatched(source.read_text(), names)
    except ValueError as error:
        raise ValueError(f"{source.name}: {error}") from None


def _dispatched(text: str, names: Mapping[str, DtypeNames]) -> dict[str, DtypeNames]:
    operators = dict(_STRING.findall(text))
    local = dict(names)
    selections: dict[str, str] = {}  # a local DtypeSet -> the operator it selects
    for name, expression in _SET.findall(text):
        selected = _SELECTED.match(expression.strip())
        if selected:
            selections[name] = selected.group(1)
        else:
            local[name] = evaluate(expression, local)
    result: dict[str, DtypeNames] = {}
    for match in _DISPATCH.finditer(text):
        supported, selection = _template_arguments(text, match.end())
        selection = selection.removesuffix(".bits()").strip()
        direct = _SELECTED.match(selection)
        variable = direct.group(1) if direct else selections.get(selection)
        if variable is None or (variable not in operators and not variable.startswith("*")):
            raise ValueError(f"DtypeDispatch selects {selection!r}, no operator's")
        dtypes = evaluate(supported, local)
        for op in _served(text, match.start(), variable, operators):
            result[op] = result.get(op, frozenset()) | dtypes
    return result


def _served(text: str, start: int, variable: str, operators: Mapping[str, str]) -> list[str]:
    """The operators one dispatch serves: its own, or for an alias template over a pointer
    parameter (`template <const char* const* kName> using D = ...(*kName)`), every
    operator the file instantiates it with (`D<&kOp>`)."""
    if not variable.startswith("*"):
        return [operators[variable]]
    alias = re.search(r"using\s+(\w+)\s*=\s*(?:rt::)?$", text[:start])
    if alias is None:
        raise ValueError(f"selects {variable!r} outside an alias template")
    used = re.findall(rf"\b{alias.group(1)}\s*<\s*&\s*(\w+)\s*>", text)
    if not used or any(name not in operators for name in used):
        raise ValueError(f"{alias.group(1)} is not instantiated with operator names only")
    return [operators[name] for name in used]
