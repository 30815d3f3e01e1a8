"""Choosing a kernel for every selected (operator, kernel key).

Libraries are tried in the target's precedence order; in a library, a kernel registered
for exactly the model's key wins, else the operator's default kernel serves it. Anything
left without a kernel fails the build here, naming the operator and who needs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from codegen.errors import InputError
from codegen.kernel_library import KernelEntry, KernelLibrary
from codegen.model import KernelKey, OperatorName
from codegen.scalar_type import ScalarType
from codegen.selection import Selection


@dataclass(frozen=True)
class Resolution:
    """The kernels a target registers and, per operator, the dtypes its kernels must keep."""

    kernels: tuple[KernelEntry, ...]
    # None: every dtype (an operator selected by name, or include-all).
    op_dtypes: Mapping[OperatorName, frozenset[ScalarType] | None]

    @property
    def registry_slots(self) -> int:
        return len(self.kernels)


def resolve(selection: Selection, libraries: Sequence[KernelLibrary], target: str) -> Resolution:
    """The kernels serving `selection`; InputError listing every operator left without one."""
    if selection.include_all_operators:
        return _resolve_everything(libraries)
    chosen: set[KernelEntry] = set()
    missing: list[str] = []
    op_dtypes: dict[OperatorName, frozenset[ScalarType] | None] = {}
    for name, op in sorted(selection.operators.items()):
        keys = op.kernel_keys or frozenset({KernelKey.default()})
        for key in sorted(keys):
            kernel = _kernel_for(name, key, libraries)
            if kernel is None:
                missing.append(
                    f"{name} [{key}] (needed by {', '.join(sorted(op.sources_of(key)))})"
                )
            else:
                chosen.add(kernel)
        any_default = any(key.is_default for key in keys)
        op_dtypes[name] = None if any_default else frozenset().union(*(k.dtypes() for k in keys))
    if missing:
        raise InputError(
            f"target {target}",
            f"no kernel library implements {len(missing)} selected operator key(s): "
            + "; ".join(missing),
        )
    return Resolution(_registry_order(chosen), op_dtypes)


def _kernel_for(
    name: OperatorName, key: KernelKey, libraries: Sequence[KernelLibrary]
) -> KernelEntry | None:
    for library in libraries:
        kernels = library.kernels_of(name)
        exact = [kernel for kernel in kernels if kernel.key == key]
        defaults = [kernel for kernel in kernels if kernel.key.is_default]
        if exact or defaults:
            return (exact or defaults)[0]
    return None


def _resolve_everything(libraries: Sequence[KernelLibrary]) -> Resolution:
    """Every operator of every library, each from the first library that has it."""
    chosen: dict[OperatorName, tuple[KernelEntry, ...]] = {}
    for library in libraries:
        for name in library.operators():
            chosen.setdefault(name, library.kernels_of(name))
    kernels = {kernel for entries in chosen.values() for kernel in entries}
    return Resolution(_registry_order(kernels), {name: None for name in sorted(chosen)})


def _registry_order(kernels: set[KernelEntry]) -> tuple[KernelEntry, ...]:
    """Sorted by operator name, the default kernel first, as the runtime's lookup expects."""
    return tuple(sorted(kernels, key=lambda k: (str(k.op), not k.key.is_default, str(k.key))))
