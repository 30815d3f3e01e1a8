"""The dtypes a kernel library entry declares: its `dtypes:` and `argument_dtypes:`.

Note [Declared dtypes]
An entry's `dtypes:` (our addition to ExecuTorch's functions.yaml) lists the dtypes its
kernel dispatches on: what every tensor argument may have, except an argument that
`argument_dtypes:` names, which has its own list (`{out1: [Bool]}` for a mask, Long
indices, a quantized out's integer dtypes, a packed Byte weight). Both are facts about the
kernel, written once, here: resolution refuses a model key carrying a dtype outside their
union (`KernelEntry.dtypes`), and codegen renders them, per kernel source, into the
`declared_op_dtypes.h` that source compiles against (codegen/render.py), which the kernel
reads as `kernels::declared_dtypes(op)` and `kernels::declared_dtypes(op, "out1")`
(kernels/common/declared_dtypes.h). So a built-in kernel names no dtype list of its own: its
dispatch is what its entry declares. An entry without `dtypes:` declares every dtype (and
resolution checks none); an operator its library has no entry for declares none (a library
may reuse a kernel source and leave some of its operators out).
"""

from __future__ import annotations

from dataclasses import dataclass

from selective_build.codegen.model import OperatorName
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.schema import Schema


@dataclass(frozen=True)
class DeclaredDtypes:
    """Note [Declared dtypes]: `dtypes:`, and `argument_dtypes:` sorted by argument name."""

    dtypes: frozenset[ScalarType]
    arguments: tuple[tuple[str, frozenset[ScalarType]], ...] = ()

    def of(self, argument: str) -> frozenset[ScalarType]:
        """The dtypes tensor argument `argument` may have."""
        return dict(self.arguments).get(argument, self.dtypes)

    def union(self) -> frozenset[ScalarType]:
        """Every dtype any tensor argument may have: what a model's key is checked against."""
        return self.dtypes.union(*(dtypes for _, dtypes in self.arguments))


def tensor_arguments(schema: Schema) -> list[str]:
    """The names of the schema's tensor arguments (`Tensor`, `Tensor?`, `Tensor[]`...)."""
    return [argument.name for argument in schema.arguments if argument.type.base == "Tensor"]


def read_declared(entry: dict[object, object], schema: Schema) -> DeclaredDtypes | None:
    """An entry's `dtypes:` and `argument_dtypes:`; None without `dtypes:`. ValueError names
    the operator and what is wrong."""
    op = schema.name
    listed = entry.get("dtypes")
    arguments = entry.get("argument_dtypes")
    if listed is None:
        if arguments is not None:
            raise ValueError(f"{op}: 'argument_dtypes' needs 'dtypes' (the other arguments')")
        return None
    dtypes = _dtype_list(listed, op, "dtypes")
    if arguments is None:
        return DeclaredDtypes(dtypes)
    if not isinstance(arguments, dict) or not arguments:
        raise ValueError(f"{op}: 'argument_dtypes' must map argument names to dtype lists")
    tensors = tensor_arguments(schema)
    pairs = []
    for name, value in sorted(arguments.items(), key=lambda item: str(item[0])):
        if name not in tensors:
            raise ValueError(
                f"{op}: 'argument_dtypes': {name!r} is not a tensor argument of the schema "
                f"(those are {', '.join(tensors) or 'none'})"
            )
        pairs.append((str(name), _dtype_list(value, op, f"argument_dtypes.{name}")))
    return DeclaredDtypes(dtypes, tuple(pairs))


def _dtype_list(value: object, op: OperatorName, key: str) -> frozenset[ScalarType]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"{op}: '{key}' must be a non-empty list of dtype names")
    dtypes = []
    for name in value:
        if not isinstance(name, str):
            raise ValueError(f"{op}: '{key}' entry {name!r} is not a dtype name")
        try:
            dtypes.append(ScalarType.from_name(name))
        except ValueError as error:
            raise ValueError(f"{op}: '{key}': {error}") from None
    return frozenset(dtypes)
