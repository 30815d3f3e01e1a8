"""The one ScalarType table of the project.

Numbers follow ExecuTorch's `ScalarType` (they are what `.pte` files and kernel keys
carry). The runtime's enum, element sizes and names are generated from this table
(`codegen/scalar_type_header.py` writes `runtime/core/scalar_types.h`).
"""

from __future__ import annotations

import enum


class ScalarType(enum.Enum):
    """An element type: its ExecuTorch number, C++ name and numpy spelling."""

    def __init__(self, number: int, numpy_name: str | None, size: int) -> None:
        self.number = number
        self.numpy_name = numpy_name
        self.size = size

    Byte = (0, "uint8", 1)
    Char = (1, "int8", 1)
    Short = (2, "int16", 2)
    Int = (3, "int32", 4)
    Long = (4, "int64", 8)
    Half = (5, "float16", 2)
    Float = (6, "float32", 4)
    Double = (7, "float64", 8)
    ComplexHalf = (8, None, 4)
    ComplexFloat = (9, "complex64", 8)
    ComplexDouble = (10, "complex128", 16)
    Bool = (11, "bool", 1)
    QInt8 = (12, None, 1)
    QUInt8 = (13, None, 1)
    QInt32 = (14, None, 4)
    BFloat16 = (15, None, 2)
    QUInt4x2 = (16, None, 1)
    QUInt2x4 = (17, None, 1)
    Bits1x8 = (18, None, 1)
    Bits2x4 = (19, None, 1)
    Bits4x2 = (20, None, 1)
    Bits8 = (21, None, 1)
    Bits16 = (22, None, 2)
    Float8_e5m2 = (23, None, 1)
    Float8_e4m3fn = (24, None, 1)
    Float8_e5m2fnuz = (25, None, 1)
    Float8_e4m3fnuz = (26, None, 1)
    UInt16 = (27, "uint16", 2)
    UInt32 = (28, "uint32", 4)
    UInt64 = (29, "uint64", 8)

    @classmethod
    def from_number(cls, number: int) -> ScalarType:
        """The type with ExecuTorch number `number`; ValueError when there is none."""
        try:
            return _BY_NUMBER[number]
        except KeyError:
            raise ValueError(f"unknown ScalarType number {number}") from None

    @classmethod
    def from_name(cls, name: str) -> ScalarType:
        """The type called `name` (case-insensitive, `Float` or `float`)."""
        try:
            return _BY_LOWER_NAME[name.lower()]
        except KeyError:
            known = ", ".join(t.name for t in cls)
            raise ValueError(f"unknown dtype {name!r}{_hint(name)} (known: {known})") from None


_BY_NUMBER = {t.number: t for t in ScalarType}
_BY_LOWER_NAME = {t.name.lower(): t for t in ScalarType}


# numpy's and PyTorch's spellings that are no name of ours (`float32`, `torch.int64`):
# an error names ours.
_OTHER_SPELLINGS = {
    **{t.numpy_name: t for t in ScalarType if t.numpy_name is not None},
    "cfloat": ScalarType.ComplexFloat,
    "cdouble": ScalarType.ComplexDouble,
    "chalf": ScalarType.ComplexHalf,
    "complex32": ScalarType.ComplexHalf,
}


def _hint(name: str) -> str:
    """ "; did you mean 'Float'?" for a dtype spelled as numpy or PyTorch spell it, or for
    a near miss of one of our names."""
    from selective_build.codegen.hints import did_you_mean

    bare = name.strip().lower().removeprefix("torch.").removeprefix("numpy.").removeprefix("np.")
    other = _OTHER_SPELLINGS.get(bare) or _BY_LOWER_NAME.get(bare)
    if other is not None:
        return f"; did you mean {other.name!r}?"
    return did_you_mean(name, (t.name for t in ScalarType))
