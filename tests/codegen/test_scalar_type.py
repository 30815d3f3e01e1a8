"""The Python ScalarType table and the C++ enum must agree name for name, number for number."""

from __future__ import annotations

import re

import pytest

from codegen.scalar_type import ScalarType
from tests.conftest import REPO


def test_cpp_enum_matches_python_table() -> None:
    header = (REPO / "runtime" / "core" / "scalar_type.h").read_text()
    body = header.split("enum class ScalarType", 1)[1].split("};", 1)[0]
    cpp = {name: int(number) for name, number in re.findall(r"(\w+) = (\d+),", body)}
    assert cpp == {t.name: t.number for t in ScalarType}


def test_lookup_by_number_and_name() -> None:
    assert ScalarType.from_number(15) is ScalarType.BFloat16
    assert ScalarType.from_name("bfloat16") is ScalarType.BFloat16
    with pytest.raises(ValueError, match="unknown ScalarType number 30"):
        ScalarType.from_number(30)
    with pytest.raises(ValueError, match="unknown dtype 'f16'"):
        ScalarType.from_name("f16")
