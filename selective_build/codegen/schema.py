"""Operator schemas: the `func:` of a functions.yaml entry, parsed into types.

The grammar is the subset of torch's function schema language ExecuTorch's YAMLs use:
`ns::name.overload(ARG, ..., *, ARG, ...) -> RETURNS`, an ARG being `TYPE name[=default]`
and RETURNS `TYPE`, `()` or `(TYPE [name], ...)`. A TYPE is a base type (`Tensor`,
`Scalar`, `int`, `SymInt`, `float`, `bool`, `str`, `ScalarType`, `MemoryFormat`,
`Layout`, `Device`, `Generator`, `Dimname`...), optionally with an alias annotation
(`Tensor(a!)`: `!` marks a tensor the operator writes), a list suffix (`[]`, `[2]`), and
`?` for optional (on the element, `Tensor?[]`, or on the list, `int[]?`).

`str(schema)` gives back the text it was parsed from when that text is in torch's
canonical spelling (one space after commas, `aten::` omitted by ExecuTorch's YAMLs), so
the YAMLs' schemas can be compared with torch's byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selective_build.codegen.model import OperatorName

# Base types whose values the program stores as an Int (enums included).
INT_TYPES = frozenset({"int", "SymInt", "ScalarType", "MemoryFormat", "Layout", "Device"})
KNOWN_BASES = INT_TYPES | {
    "Tensor",
    "Scalar",
    "float",
    "bool",
    "str",
    "Generator",
    "Dimname",
    "SymFloat",
    "SymBool",
    "Storage",
}

_TYPE = re.compile(
    r"(?P<base>[A-Za-z_][A-Za-z0-9_]*)"
    r"(?:\((?P<alias>[a-z]+)(?P<mutable>!)?\))?"
    r"(?P<element_optional>\?)?"
    r"(?P<list>\[(?P<size>[0-9]*)\])?"
    r"(?P<optional>\?)?"
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class SchemaType:
    """One argument or return type, e.g. `Tensor(a!)`, `int[2]`, `Tensor?[]`, `int[]?`."""

    base: str
    optional: bool = False  # the whole value may be None
    is_list: bool = False
    list_size: int | None = None  # int[2]
    element_optional: bool = False  # Tensor?[]: entries may be None
    alias: str | None = None  # the `a` of Tensor(a!)
    mutable: bool = False  # the `!` of Tensor(a!)

    def __str__(self) -> str:
        text = self.base
        if self.alias is not None:
            text += f"({self.alias}{'!' if self.mutable else ''})"
        if self.element_optional:
            text += "?"
        if self.is_list:
            text += f"[{'' if self.list_size is None else self.list_size}]"
        if self.optional:
            text += "?"
        return text

    @property
    def element(self) -> str:
        """The kind of value, ignoring annotations: `Tensor`, `Tensor?[]`, `int[]`..."""
        text = self.base + ("?" if self.element_optional else "")
        return text + ("[]" if self.is_list else "")


@dataclass(frozen=True)
class Argument:
    name: str
    type: SchemaType
    default: str | None = None
    kwarg_only: bool = False

    @property
    def is_out(self) -> bool:
        """An out argument, as torch defines one: keyword-only and written (`Tensor(a!)`)."""
        return self.kwarg_only and self.type.mutable

    def __str__(self) -> str:
        default = "" if self.default is None else f"={self.default}"
        return f"{self.type} {self.name}{default}"


@dataclass(frozen=True)
class Return:
    type: SchemaType
    name: str | None = None

    def __str__(self) -> str:
        return str(self.type) if self.name is None else f"{self.type} {self.name}"


@dataclass(frozen=True)
class Schema:
    """A parsed `func:`; `name` carries the namespace (`aten` when the text names none)."""

    name: OperatorName
    arguments: tuple[Argument, ...]
    returns: tuple[Return, ...]

    @property
    def out_arguments(self) -> tuple[Argument, ...]:
        return tuple(argument for argument in self.arguments if argument.is_out)

    @property
    def has_return_slot(self) -> bool:
        """Whether a call lists one value after the arguments (Note [Kernel call layout])."""
        return bool(self.out_arguments) or bool(self.returns)

    def text(self, *, with_aten: bool = True) -> str:
        """The schema's text; `with_aten=False` drops an `aten::` prefix as ExecuTorch's
        functions.yaml does."""
        name = str(self.name)
        if not with_aten and self.name.namespace == "aten":
            name = name.removeprefix("aten::")
        parts: list[str] = []
        star = False
        for argument in self.arguments:
            if argument.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(str(argument))
        if len(self.returns) == 1 and self.returns[0].name is None:
            returns = str(self.returns[0])
        else:
            returns = f"({', '.join(str(r) for r in self.returns)})"
        return f"{name}({', '.join(parts)}) -> {returns}"

    def __str__(self) -> str:
        return self.text()


def parse_schema(text: str) -> Schema:
    """Parse one schema; ValueError says what is wrong and where."""
    head, arrow, returns_text = text.partition(") -> ")
    name_text, paren, arguments_text = head.partition("(")
    if not arrow or not paren:
        raise ValueError(f"schema {text!r} is not of the form name(arguments) -> returns")
    name_text = name_text.strip()
    name = OperatorName.parse(name_text if "::" in name_text else f"aten::{name_text}")
    arguments: list[Argument] = []
    kwarg_only = False
    for part in _split(arguments_text, text):
        if part == "*":
            if kwarg_only:
                raise ValueError(f"schema {text!r} has two '*'")
            kwarg_only = True
            continue
        arguments.append(_argument(part, kwarg_only, text))
    names = [argument.name for argument in arguments]
    if len(set(names)) != len(names):
        raise ValueError(f"schema {text!r} names an argument twice")
    return Schema(name, tuple(arguments), _returns(returns_text.strip(), text))


def _split(text: str, schema: str) -> list[str]:
    """Comma-separated parts, not splitting inside brackets (`int[2] x=[1, 1]`)."""
    parts: list[str] = []
    depth = 0
    current = ""
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    if depth != 0:
        raise ValueError(f"schema {schema!r} has unbalanced brackets")
    if parts or current.strip():  # `()` has no part; `(a, )` an empty one
        parts.append(current.strip())
    if any(not part for part in parts):
        raise ValueError(f"schema {schema!r} has an empty argument")
    return parts


def _argument(part: str, kwarg_only: bool, schema: str) -> Argument:
    declaration, _, default = part.partition("=")
    type_text, _, name = declaration.strip().rpartition(" ")
    if not type_text or not _NAME.fullmatch(name):
        raise ValueError(f"schema {schema!r}: argument {part!r} is not 'Type name[=default]'")
    return Argument(name, parse_type(type_text, schema), default or None, kwarg_only)


def _returns(text: str, schema: str) -> tuple[Return, ...]:
    if text.startswith("(") and text.endswith(")"):
        parts = _split(text[1:-1], schema)
    else:
        parts = [text]
    returns = []
    for part in parts:
        type_text, _, name = part.partition(" ")
        if name and not _NAME.fullmatch(name):
            raise ValueError(f"schema {schema!r}: return {part!r} is not 'Type [name]'")
        returns.append(Return(parse_type(type_text, schema), name or None))
    return tuple(returns)


def parse_type(text: str, schema: str = "") -> SchemaType:
    match = _TYPE.fullmatch(text)
    if match is None or match["base"] not in KNOWN_BASES:
        raise ValueError(f"schema {schema!r}: unknown type {text!r}")
    if match["element_optional"] and not match["list"]:
        # `Tensor?` alone: the optional marker belongs to the value.
        return SchemaType(
            match["base"], optional=True, alias=match["alias"], mutable=bool(match["mutable"])
        )
    size = match["size"]
    return SchemaType(
        base=match["base"],
        optional=bool(match["optional"]),
        is_list=bool(match["list"]),
        list_size=int(size) if size else None,
        element_optional=bool(match["element_optional"]),
        alias=match["alias"],
        mutable=bool(match["mutable"]),
    )
