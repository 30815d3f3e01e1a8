"""The data model every stage shares: operator names and kernel keys.

Parsed once at the boundary (a `.pte` file, a YAML, the manifest); everything downstream
takes these types, never raw strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selective_build.codegen.scalar_type import ScalarType

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OVERLOAD = re.compile(r"[A-Za-z0-9_]*")
# A tensor meta as written in a kernel key: `6;0,1` (decimal without sign or padding).
_NUMBER = r"(?:0|[1-9][0-9]*)"
_META = re.compile(rf"{_NUMBER};(?:{_NUMBER}(?:,{_NUMBER})*)?", re.ASCII)


@dataclass(frozen=True, order=True)
class OperatorName:
    """`namespace::name.overload`, e.g. `aten::add.out`; the overload may be empty."""

    namespace: str
    name: str
    overload: str

    @classmethod
    def parse(cls, text: str) -> OperatorName:
        """Parse `ns::name[.overload]`; ValueError names what is wrong."""
        namespace, sep, rest = text.partition("::")
        if not sep:
            raise ValueError(f"operator {text!r} has no namespace (expected ns::name.overload)")
        name, _, overload = rest.partition(".")
        if not _IDENTIFIER.fullmatch(namespace) or not _IDENTIFIER.fullmatch(name):
            raise ValueError(f"operator {text!r} is not a valid ns::name.overload identifier")
        if not _OVERLOAD.fullmatch(overload):
            raise ValueError(f"operator {text!r} has an invalid overload name")
        return cls(namespace, name, overload)

    @classmethod
    def from_parts(cls, qualified_name: str, overload: str) -> OperatorName:
        """Build from a `.pte` Operator table's `name` and `overload` fields."""
        text = f"{qualified_name}.{overload}" if overload else qualified_name
        return cls.parse(text)

    def __str__(self) -> str:
        base = f"{self.namespace}::{self.name}"
        return f"{base}.{self.overload}" if self.overload else base


@dataclass(frozen=True, order=True)
class TensorMeta:
    """The dtype and dim order of one tensor argument of a kernel call."""

    dtype: ScalarType
    dim_order: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.dtype.number};{','.join(str(d) for d in self.dim_order)}"

    @classmethod
    def parse(cls, text: str) -> TensorMeta:
        dtype_text, sep, dims_text = text.partition(";")
        if not sep:
            raise ValueError(f"tensor meta {text!r} lacks ';'")
        if not _META.fullmatch(text):
            # Checked as text: int() would accept ' 6', '+6', '06' or '6\n'.
            raise ValueError(f"tensor meta {text!r} is not <dtype>;<dim>,<dim>,... in digits")
        dims = tuple(int(d) for d in dims_text.split(",")) if dims_text else ()
        return cls(ScalarType.from_number(int(dtype_text)), dims)


# Note [Kernel key]
# A kernel key names the dtypes and dim orders one kernel call sees. It is computed by
# one rule, the one ExecuTorch 1.5's gen_oplist uses, in codegen/pte/reader.py (from a model),
# here (text form) and runtime/kernel/kernel_key.cpp (at load): walk the call's argument
# values in order; a Tensor contributes `<dtype number>;<dim order>`, a non-empty
# TensorList its first element, an OptionalTensorList its first present element, and
# anything else nothing. Entries are joined by `|` after `v1/`; a call with no tensor
# entries has the key `v1`. An `.out` call lists its out tensor twice (argument and
# return value), so it appears twice in the key. `default` is the key of a kernel that
# serves every dtype.
@dataclass(frozen=True)
class KernelKey:
    """A kernel key (see Note [Kernel key]); `tensors is None` means `default`."""

    tensors: tuple[TensorMeta, ...] | None

    def __lt__(self, other: KernelKey) -> bool:
        # Ordered as their text, which is how every YAML and the runtime's table sort them.
        return str(self) < str(other)

    @classmethod
    def default(cls) -> KernelKey:
        return cls(None)

    @property
    def is_default(self) -> bool:
        return self.tensors is None

    def dtypes(self) -> frozenset[ScalarType]:
        return frozenset(t.dtype for t in self.tensors or ())

    def __str__(self) -> str:
        if self.tensors is None:
            return "default"
        if not self.tensors:
            return "v1"
        return "v1/" + "|".join(str(t) for t in self.tensors)

    @classmethod
    def parse(cls, text: str) -> KernelKey:
        """Parse `default`, `v1` or `v1/<meta>|<meta>...`; ValueError when malformed."""
        if text == "default":
            return cls.default()
        if text == "v1":
            return cls(())
        version, sep, body = text.partition("/")
        if version != "v1" or not sep or not body:
            raise ValueError(f"kernel key {text!r} is not 'default', 'v1' or 'v1/...'")
        try:
            return cls(tuple(TensorMeta.parse(part) for part in body.split("|")))
        except ValueError as error:
            raise ValueError(f"kernel key {text!r}: {error}") from None
