"""Reading the fields of the size stage's JSON files back into typed values.

Each reader takes a value as `json.loads` gave it and returns it typed, or raises
TypeError saying what it expected (a missing key is the KeyError of indexing); the codec
of the file turns either into the one-line error naming the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

# A value as JSON holds it.
JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"


def mapping(value: object) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {value!r}")
    return value


def items(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return value


def integer(value: object) -> int:
    # bool is an int to Python, not to a size report.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def optional_integer(value: object) -> int | None:
    return None if value is None else integer(value)


def number(value: object) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise TypeError(f"expected a number, got {value!r}")
    return value


def boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def texts(value: object) -> tuple[str, ...]:
    return tuple(text(item) for item in items(value))


def integers(value: object) -> dict[str, int]:
    """An object of integers, e.g. bytes by name."""
    return {text(key): integer(item) for key, item in mapping(value).items()}


def json_value(value: object) -> JsonValue:
    """`value`, checked to be what JSON holds: a setting's value, recorded as given."""
    if isinstance(value, Mapping):
        return {text(key): json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_value(item) for item in value]
    if value is None or isinstance(value, str | int | float):  # bool is an int
        return value
    raise TypeError(f"expected a JSON value, got {value!r}")
