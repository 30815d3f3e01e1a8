"""A kernel library: ExecuTorch-style `functions.yaml` plus one source file per operator.

An entry's `func:` is the operator's full schema, as in ExecuTorch's `custom_ops.yaml`
(`add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)`; the
name may carry a namespace, `aten` is implied): codegen generates the kernels' unboxing
and typed signatures from it (`codegen/unboxing.py`). ExecuTorch's own YAMLs also name
ATen operators by `op:` alone; `read_schema_operators` accepts those, a kernel library
does not. `kernels:` lists its kernels, each a C++
function `kernel_name` and `arg_meta` (null for the default kernel, else a map of argument
to `[type alias, dim order alias]`, expanded into one key per dtype combination). The
kernel functions of operator `ns::name.overload` live in `<sources>/op_<name>.cpp`.

Our own optional entry keys `dtypes:` (a list of ScalarType names, e.g. `[Float, Double]`)
and `argument_dtypes:` declare the dtypes the entry's kernel dispatches on and those of
arguments with dtypes of their own (Note [Declared dtypes], codegen/declared_dtypes.py).
Resolution then refuses a model key carrying any other dtype; an entry without `dtypes:`
declares every dtype and is not checked.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.declared_dtypes import DeclaredDtypes, read_declared
from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName, TensorMeta
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.schema import Schema, parse_schema
from selective_build.codegen.unboxing import unboxing
from selective_build.codegen.yaml_io import expect, load_yaml, strings

_CPP_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+")
# Namespaces a kernel may not live in: the runtime's and the generated code's (`rt`, where
# the generated registry `rt::selected_kernels` is defined beside the runtime's own
# functions) and the standard library's. A kernel there would collide with one of them,
# and the compiler or linker would say so in pages of its own.
RESERVED_NAMESPACES = {
    "rt": "the runtime and the code generated for each build (the registry is "
    "rt::selected_kernels)",
    "std": "the C++ standard library",
}
_ENTRY_KEYS = {
    "op",
    "func",
    "kernels",
    "type_alias",
    "dim_order_alias",
    "variants",
    "dispatch",
    "dtypes",
    "argument_dtypes",
}


@dataclass(frozen=True, order=True)
class KernelEntry:
    """One kernel: the operator and key it serves, and the C++ function that runs it."""

    op: OperatorName
    key: KernelKey
    function: str
    library: str
    source: Path
    # Note [Declared dtypes]: the entry's `dtypes:` and `argument_dtypes:`; None: every dtype.
    declared: DeclaredDtypes | None
    # The operator's schema (the entry's `func:`); a function of `op`, so not compared.
    schema: Schema = field(compare=False)

    @property
    def dtypes(self) -> frozenset[ScalarType] | None:
        """Every dtype the kernel's tensor arguments may have; None: not declared."""
        return None if self.declared is None else self.declared.union()

    def supports(self, key: KernelKey) -> bool:
        """Whether every dtype of `key` is declared (always, when nothing is declared)."""
        return self.dtypes is None or key.dtypes() <= self.dtypes


@dataclass(frozen=True)
class KernelLibrary:
    name: str
    kernels: tuple[KernelEntry, ...]

    def operators(self) -> frozenset[OperatorName]:
        return frozenset(kernel.op for kernel in self.kernels)

    def kernels_of(self, op: OperatorName) -> tuple[KernelEntry, ...]:
        return tuple(kernel for kernel in self.kernels if kernel.op == op)


def read_schema_operators(path: Path) -> list[OperatorName]:
    """The operators a functions.yaml or custom_ops.yaml declares, in file order."""
    operators = []
    for index, entry in enumerate(_read_entries(path)):
        if not isinstance(entry, dict):
            raise InputError(path, f"entry {index}: expected a mapping")
        try:
            operators.append(entry_operator(entry))
        except ValueError as error:
            raise InputError(path, f"entry {index}: {error}") from None
    return operators


def _read_entries(path: Path) -> list[object]:
    document = load_yaml(path)
    if not isinstance(document, list):
        raise InputError(path, "expected a list of operator entries")
    return document


def read_kernel_library(name: str, functions: Path, sources: Path) -> KernelLibrary:
    """Parse `functions` and check each operator's source file exists in `sources`."""
    document = _read_entries(functions)
    kernels: list[KernelEntry] = []
    for index, entry in enumerate(document):
        try:
            kernels.extend(_entry_kernels(entry, name, sources))
        except ValueError as error:
            raise InputError(functions, f"entry {index}: {error}") from None
    seen: set[tuple[OperatorName, KernelKey]] = set()
    for kernel in kernels:
        if (kernel.op, kernel.key) in seen:
            raise InputError(functions, f"{kernel.op} has two kernels for key {kernel.key}")
        seen.add((kernel.op, kernel.key))
    return KernelLibrary(name, tuple(sorted(kernels)))


def _entry_kernels(entry: object, library: str, sources: Path) -> list[KernelEntry]:
    if not isinstance(entry, dict):
        raise ValueError("expected a mapping")
    unknown = set(entry) - _ENTRY_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    if "func" not in entry:
        raise ValueError(
            f"{entry_operator(entry)}: needs 'func:', the operator's schema "
            "(codegen generates the kernel's unboxing from it)"
        )
    schema = entry_schema(entry)
    op = schema.name
    source = sources / f"op_{op.name}.cpp"
    if not os.path.isfile(source):  # False, not an error, for a name too long
        raise ValueError(f"{op}: kernel source {source} does not exist")
    kernels = entry.get("kernels")
    if not isinstance(kernels, list) or not kernels:
        raise ValueError(f"{op}: 'kernels' must be a non-empty list")
    declared = read_declared(entry, schema)
    dtypes = None if declared is None else declared.union()
    result: list[KernelEntry] = []
    for kernel in kernels:
        if not isinstance(kernel, dict) or set(kernel) - {"arg_meta", "kernel_name"}:
            raise ValueError(f"{op}: each kernel needs only 'arg_meta' and 'kernel_name'")
        function = kernel.get("kernel_name")
        if not isinstance(function, str) or not _CPP_NAME.fullmatch(function):
            raise ValueError(f"{op}: kernel_name {function!r} is not a C++ qualified name")
        _check_namespace(function, op)
        unboxing(schema, function)  # ValueError: a type no kernel can be passed
        for key in _expand_keys(kernel.get("arg_meta"), entry, op):
            if dtypes is not None and not key.dtypes() <= dtypes:
                outside = ", ".join(sorted(t.name for t in key.dtypes() - dtypes))
                raise ValueError(f"{op}: kernel key {key} uses dtypes {outside} not in 'dtypes'")
            result.append(KernelEntry(op, key, function, library, source, declared, schema))
    return result


def _check_namespace(function: str, op: OperatorName) -> None:
    namespace = function.split("::", 1)[0]
    owner = RESERVED_NAMESPACES.get(namespace)
    if owner is not None:
        raise ValueError(
            f"{op}: kernel_name {function!r} is in namespace {namespace}, which belongs to "
            f"{owner}: a kernel there collides with its names; put it in a namespace of the "
            "library's own"
        )


def entry_operator(entry: dict[str, object]) -> OperatorName:
    """The operator an `op:` or `func:` entry declares (`aten` when it names no namespace)."""
    if "op" in entry:
        text = expect(entry["op"], str, "op")
        return OperatorName.parse(text if "::" in text else f"aten::{text}")
    if "func" in entry:
        text = expect(entry["func"], str, "func").split("(", 1)[0].strip()
        return OperatorName.parse(text if "::" in text else f"aten::{text}")
    raise ValueError("needs 'op' or 'func'")


def entry_schema(entry: dict[str, object]) -> Schema:
    """The parsed `func:` of an entry; ValueError says what is wrong with it."""
    return parse_schema(expect(entry["func"], str, "func"))


def _expand_keys(arg_meta: object, entry: dict[str, object], op: OperatorName) -> list[KernelKey]:
    """One key per combination of the type aliases the arguments use."""
    if arg_meta is None:
        return [KernelKey.default()]
    if not isinstance(arg_meta, dict) or not arg_meta:
        raise ValueError(f"{op}: arg_meta must be null or a mapping")
    type_alias = entry.get("type_alias") or {}
    dim_alias = entry.get("dim_order_alias") or {}
    if not isinstance(type_alias, dict) or not isinstance(dim_alias, dict):
        raise ValueError(f"{op}: type_alias and dim_order_alias must be mappings")
    metas: list[tuple[str, tuple[int, ...]]] = []
    for arg, pair in arg_meta.items():
        names = strings(pair, f"{op}: arg_meta.{arg}")
        if len(names) != 2:
            raise ValueError(f"{op}: arg_meta.{arg} must be [TypeAlias, DimOrderAlias]")
        if names[0] not in type_alias or names[1] not in dim_alias:
            raise ValueError(f"{op}: arg_meta.{arg} uses an undefined alias")
        key = f"{op}: dim_order_alias.{names[1]}"
        dims = expect(dim_alias[names[1]], list, key)
        metas.append((names[0], tuple(expect(d, int, f"{key}[{i}]") for i, d in enumerate(dims))))
    aliases = list(dict.fromkeys(alias for alias, _ in metas))
    choices = [
        [ScalarType.from_name(t) for t in strings(type_alias[a], f"{op}: type_alias.{a}")]
        for a in aliases
    ]
    keys = []
    for combination in itertools.product(*choices):
        chosen = dict(zip(aliases, combination, strict=True))
        keys.append(KernelKey(tuple(TensorMeta(chosen[alias], dims) for alias, dims in metas)))
    return keys
