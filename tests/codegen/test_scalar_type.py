"""The one ScalarType table (the runtime's side is generated from it:
tests/codegen/test_scalar_type_header.py)."""

from __future__ import annotations

import pytest

from selective_build.codegen.scalar_type import ScalarType


def test_lookup_by_number_and_name() -> None:
    assert ScalarType.from_number(15) is ScalarType.BFloat16
    assert ScalarType.from_name("bfloat16") is ScalarType.BFloat16
    with pytest.raises(ValueError, match="unknown ScalarType number 30"):
        ScalarType.from_number(30)
    with pytest.raises(ValueError, match="unknown dtype 'f16'"):
        ScalarType.from_name("f16")
