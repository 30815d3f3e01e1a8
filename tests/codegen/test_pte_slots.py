"""`runtime/loader/schema.h` holds the same slots and union tags as `codegen/pte/slots.py`.

The C++ runtime cannot import the Python table, so every constant schema.h declares is
parsed and compared with the Python entry of the same name: `namespace execution_plan {
constexpr int kNonConstBufferSizes = 8; }` is `ExecutionPlan.NON_CONST_BUFFER_SIZES`; the
`uint8_t` constants are union or enum tags of the table's field (see `_TAGS`).
"""

from __future__ import annotations

import re
from enum import IntEnum
from pathlib import Path

import pytest

from codegen.pte import slots as pte_slots

SCHEMA_H = Path(__file__).resolve().parents[2] / "runtime" / "loader" / "schema.h"

_LINE = re.compile(
    r"namespace\s+(\w+)\s*\{|\}\s*//\s*namespace|^\}\s*$|"
    r"constexpr\s+(int|uint8_t)\s+k(\w+)\s*=\s*(\d+)\s*;",
    re.MULTILINE,
)
# schema.h's namespace names that are not the table's name in snake case.
_TABLES = {"op": pte_slots.Operator, "evalue": pte_slots.EValue}
# The enum a namespace's uint8_t constants belong to, and the prefix their names carry.
_TAGS: dict[str, tuple[type[IntEnum], str]] = {
    "instruction": (pte_slots.InstructionArguments, ""),
    "evalue": (pte_slots.KernelTypes, ""),
    "extra_tensor_info": (pte_slots.TensorDataLocation, "Location"),
}


def _constants(text: str) -> list[tuple[tuple[str, ...], str, str, int]]:
    """(namespaces inside rt::schema, C++ type, name without its `k`, value) per constant."""
    stack: list[str] = []
    found = []
    for match in _LINE.finditer(text):
        namespace, kind, name, value = match.groups()
        if namespace:
            stack.append(namespace)
        elif kind:
            found.append((tuple(stack[2:]), kind, name, int(value)))
        elif stack:
            stack.pop()
    return found


def _upper_snake(camel: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", camel).upper()


def _table(namespace: str) -> type[IntEnum]:
    if namespace in _TABLES:
        return _TABLES[namespace]
    table = getattr(pte_slots, "".join(part.title() for part in namespace.split("_")), None)
    assert isinstance(table, type) and issubclass(table, IntEnum), (
        f"schema.h namespace {namespace} has no table in codegen/pte/slots.py"
    )
    return table


def _python_value(namespaces: tuple[str, ...], kind: str, name: str) -> int:
    if not namespaces:
        value = getattr(pte_slots, _upper_snake(name), None)
        assert isinstance(value, int), f"schema.h k{name} has no constant in codegen/pte/slots.py"
        return value
    assert len(namespaces) == 1, f"schema.h nests {'::'.join(namespaces)}"
    namespace = namespaces[0]
    enum: type[IntEnum]
    if kind == "uint8_t":
        assert namespace in _TAGS, f"schema.h {namespace}::k{name}: a tag of which enum?"
        enum, prefix = _TAGS[namespace]
        name = name.removeprefix(prefix)
    else:
        enum = _table(namespace)
    member = _upper_snake(name)
    assert member in enum.__members__, f"schema.h {namespace}::k{name}: no {enum.__name__}.{member}"
    return int(enum[member])


CONSTANTS = _constants(SCHEMA_H.read_text())


def test_schema_h_is_parsed_whole() -> None:
    # Every `constexpr` of schema.h is one of the constants read (none silently skipped).
    assert len(CONSTANTS) == SCHEMA_H.read_text().count("constexpr")
    assert len(CONSTANTS) >= 50


@pytest.mark.parametrize(
    ("namespaces", "kind", "name", "value"),
    CONSTANTS,
    ids=["::".join((*c[0], "k" + c[2])) for c in CONSTANTS],
)
def test_schema_h_constant_equals_the_slot_table(
    namespaces: tuple[str, ...], kind: str, name: str, value: int
) -> None:
    assert _python_value(namespaces, kind, name) == value


def test_the_comparison_can_fail() -> None:
    text = "namespace rt {\nnamespace schema {\nnamespace tensor {\nconstexpr int kSizes = 3;\n}\n}"
    ((namespaces, kind, name, value),) = _constants(text)
    assert (namespaces, name, value) == (("tensor",), "Sizes", 3)
    assert _python_value(namespaces, kind, name) != value


def test_union_fields_take_two_slots() -> None:
    # The rule the table encodes: a union's type tag, then its value, in the next slot.
    assert pte_slots.EValue.VAL == pte_slots.EValue.VAL_TYPE + 1
    assert pte_slots.Instruction.ARGS == pte_slots.Instruction.ARGS_TYPE + 1
