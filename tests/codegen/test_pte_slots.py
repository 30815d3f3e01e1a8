"""The slot table's C sides are generated from `codegen/pte/slots.py` and committed:
`runtime/loader/schema.h` for the runtime, `codegen/pte/_slots.h` for the C reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.pte import slot_headers
from selective_build.codegen.pte import slots as pte_slots
from tests.workspace import REPO


@pytest.mark.parametrize("path", sorted(slot_headers.generated()), ids=str)
def test_the_committed_header_is_what_the_table_generates(path: Path) -> None:
    assert (REPO / path).read_text() == slot_headers.generated()[path], (
        f"{path} is stale: run `python -m selective_build.codegen.pte.slot_headers`"
    )


def test_the_headers_hold_the_names_the_runtime_and_the_reader_use() -> None:
    schema = slot_headers.schema_h()
    # A table's slots, its union's tags, an enum field's values after the field's name.
    for line in (
        "constexpr int kNonConstBufferSizes = 8;",
        "constexpr uint8_t kOptionalTensorList = 11;",
        "constexpr uint8_t kLocationExternal = 1;",
        "namespace op {",  # Operator: `operator` is a C++ keyword
        "namespace evalue {",
        "constexpr int kPayload = 0;",
    ):
        assert line in schema
    reader = slot_headers.slots_h()
    for line in ("PTE_EXECUTION_PLAN_CHAINS = 5,", "PTE_KERNEL_TYPES_TENSOR_LIST = 10,"):
        assert line in reader


def test_every_enum_is_a_table_or_the_enum_of_a_field() -> None:
    tables = slot_headers._tables()
    enums = [enum for _, enum in (*pte_slots.UNIONS, *pte_slots.ENUM_FIELDS)]
    assert pte_slots.ExecutionPlan in tables and pte_slots.KernelTypes not in tables
    assert len(tables) + len(set(enums)) == sum(
        isinstance(v, type) and issubclass(v, pte_slots.IntEnum) and v is not pte_slots.IntEnum
        for v in vars(pte_slots).values()
    )


def test_union_fields_take_two_slots() -> None:
    # The rule the table encodes: a union's type tag, then its value, in the next slot.
    for tag, _ in pte_slots.UNIONS:
        value = type(tag)(tag + 1)
        assert value.name == tag.name.removesuffix("_TYPE")
