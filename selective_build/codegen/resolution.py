"""Choosing a kernel for every selected (operator, kernel key).

Libraries are tried in the target's precedence order; in a library, a kernel registered
for exactly the model's key wins, else the operator's default kernel serves it. A kernel
whose library entry declares `dtypes:` serves a model's key only when it declares every
dtype of that key; otherwise the next library is tried. Anything left without a kernel
fails the build here, naming the operator (and the undeclared dtype) and who needs it.
Keys selected without dtypes (an operator selected by name) are not dtype-checked.

Note [Dtype fallback chain]
When the default kernels of two libraries both serve an operator (an optimized library
that declares only Float before portable, with a model calling the operator on Float and
on Long tensors, or an include-all build of both), the registry cannot hold two default
kernels of one name. They become one chain, in precedence order: the runtime calls the
first kernel whose declared dtypes hold the dtype of every tensor argument of the call,
the last one otherwise (codegen/render.py writes the dispatch). It is the rule
`_kernel_for` applies to a model's key, applied to the call's tensors, so both agree.
Since they agree, a dtype-selective build compiles each library's kernel for the dtypes
of the keys it serves, not the operator's whole selection (`Resolution.library_dtypes`):
with Float served by optimized and Long by portable, portable's kernel keeps no Float
code, which no call could reach. An operator also selected for every dtype (by name)
keeps every dtype in each library, since a call of any dtype may reach any kernel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from selective_build.codegen.errors import InputError
from selective_build.codegen.kernel_library import KernelEntry, KernelLibrary
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.selection import Selection


@dataclass(frozen=True)
class Resolution:
    """The kernels a target registers and, per operator, the dtypes its kernels must keep."""

    kernels: tuple[KernelEntry, ...]
    # None: every dtype (an operator selected by name, or include-all).
    op_dtypes: Mapping[OperatorName, frozenset[ScalarType] | None]
    # Note [Dtype fallback chain]: an operator's default kernels, when more than one
    # library's serves it, in precedence order (each but the last declares its dtypes).
    chains: Mapping[OperatorName, tuple[KernelEntry, ...]] = field(default_factory=dict)
    # Note [Dtype fallback chain]: (library, operator) -> the dtypes of the keys that
    # library's kernels serve, where narrower than op_dtypes; absent: op_dtypes's.
    library_dtypes: Mapping[tuple[str, OperatorName], frozenset[ScalarType]] = field(
        default_factory=dict
    )

    def kernel_dtypes(self, kernel: KernelEntry) -> frozenset[ScalarType] | None:
        """The dtypes `kernel` is compiled for in a dtype-selective build (None: every one)."""
        return self.library_dtypes.get((kernel.library, kernel.op), self.op_dtypes[kernel.op])

    @property
    def registry_slots(self) -> int:
        """One row per kernel, a chain sharing one."""
        return len(self.kernels) - sum(len(chain) - 1 for chain in self.chains.values())


def resolve(selection: Selection, libraries: Sequence[KernelLibrary], target: str) -> Resolution:
    """The kernels serving `selection`; InputError listing every operator left without one."""
    if selection.include_all_operators:
        return _resolve_everything(libraries)
    chosen: set[KernelEntry] = set()
    missing: list[str] = []
    op_dtypes: dict[OperatorName, frozenset[ScalarType] | None] = {}
    library_dtypes: dict[tuple[str, OperatorName], frozenset[ScalarType]] = {}
    for name, op in sorted(selection.operators.items()):
        keys = op.kernel_keys or frozenset({KernelKey.default()})
        # Per dtype no library declares for this operator, the models whose keys carry it.
        unsupported: dict[ScalarType, set[str]] = {}
        served: dict[str, frozenset[ScalarType]] = {}  # library -> its keys' dtypes
        for key in sorted(keys):
            kernel, undeclared = _kernel_for(name, key, libraries)
            if kernel is not None:
                chosen.add(kernel)
                served[kernel.library] = served.get(kernel.library, frozenset()) | key.dtypes()
            elif undeclared:
                for dtype in undeclared:
                    unsupported.setdefault(dtype, set()).update(op.sources_of(key))
            else:
                missing.append(
                    f"{name} [{key}] (needed by {', '.join(sorted(op.sources_of(key)))})"
                )
        for dtype, sources in sorted(unsupported.items(), key=lambda item: item[0].number):
            missing.append(f"{name} [dtype {dtype.name}] (needed by {', '.join(sorted(sources))})")
        any_default = any(key.is_default for key in keys)
        op_dtypes[name] = None if any_default else frozenset().union(*(k.dtypes() for k in keys))
        if not any_default and len(served) > 1:  # Note [Dtype fallback chain]
            library_dtypes.update({(library, name): dtypes for library, dtypes in served.items()})
    if missing:
        raise InputError(
            f"target {target}",
            f"no kernel library implements {len(missing)} selected operator key(s): "
            + "; ".join(missing),
        )
    return Resolution(
        _registry_order(chosen), op_dtypes, _chains(chosen, libraries), library_dtypes
    )


def _kernel_for(
    name: OperatorName, key: KernelKey, libraries: Sequence[KernelLibrary]
) -> tuple[KernelEntry | None, frozenset[ScalarType]]:
    """The kernel serving `key`, else None and the key's dtypes no candidate declared.

    The dtypes are empty when no library has a kernel for `name` at all. When candidates
    were refused for their dtypes, they are the key's dtypes every candidate left
    undeclared, or (when each dtype is declared somewhere but no kernel declares all)
    those the first candidate left undeclared.
    """
    refusals: list[frozenset[ScalarType]] = []
    for library in libraries:
        kernels = library.kernels_of(name)
        exact = [kernel for kernel in kernels if kernel.key == key]
        defaults = [kernel for kernel in kernels if kernel.key.is_default]
        if not (exact or defaults):
            continue
        kernel = (exact or defaults)[0]
        if kernel.supports(key):  # a default key has no dtypes: always supported
            return kernel, frozenset()
        assert kernel.dtypes is not None  # supports() is True when nothing is declared
        refusals.append(key.dtypes() - kernel.dtypes)
    if not refusals:
        return None, frozenset()
    return None, frozenset.intersection(*refusals) or refusals[0]


def _resolve_everything(libraries: Sequence[KernelLibrary]) -> Resolution:
    """Every operator of every library, each from the first library that has it; when that
    library's default kernel declares its dtypes, later libraries' default kernels serve the
    dtypes it leaves out (Note [Dtype fallback chain])."""
    chosen: dict[OperatorName, list[KernelEntry]] = {}
    covered: dict[OperatorName, frozenset[ScalarType] | None] = {}
    for library in libraries:
        for name in sorted(library.operators()):
            kernels = library.kernels_of(name)
            if name not in chosen:
                chosen[name] = list(kernels)
                covered[name] = _default_dtypes(kernels)
                continue
            done = covered[name]
            fallback = _default_dtypes(kernels)
            if done is None or (fallback is not None and fallback <= done):
                continue  # every dtype this one serves is served before it
            chosen[name].extend(kernel for kernel in kernels if kernel.key.is_default)
            covered[name] = None if fallback is None else done | fallback
    every = {kernel for entries in chosen.values() for kernel in entries}
    return Resolution(
        _registry_order(every), {name: None for name in sorted(chosen)}, _chains(every, libraries)
    )


def _default_dtypes(kernels: Sequence[KernelEntry]) -> frozenset[ScalarType] | None:
    """The dtypes an operator's default kernel declares: None (every dtype) when it declares
    none, empty when there is no default kernel."""
    defaults = [kernel for kernel in kernels if kernel.key.is_default]
    return defaults[0].dtypes if defaults else frozenset()


def _chains(
    kernels: set[KernelEntry], libraries: Sequence[KernelLibrary]
) -> dict[OperatorName, tuple[KernelEntry, ...]]:
    """Per operator served by more than one default kernel, those in library precedence
    order; InputError when their schemas differ (one row unboxes the call for all)."""
    precedence = {library.name: index for index, library in enumerate(libraries)}
    defaults: dict[OperatorName, list[KernelEntry]] = {}
    for kernel in kernels:
        if kernel.key.is_default:
            defaults.setdefault(kernel.op, []).append(kernel)
    chains = {}
    for name, entries in sorted(defaults.items()):
        if len(entries) < 2:
            continue
        entries.sort(key=lambda kernel: precedence[kernel.library])
        first = entries[0]
        for other in entries[1:]:
            if other.schema != first.schema:
                raise InputError(
                    f"kernel library {other.library}",
                    f"{name}: its func: schema differs from library {first.library}'s; "
                    "both serve the operator, so they must declare the same schema",
                )
        chains[name] = tuple(entries)
    return chains


def _registry_order(kernels: set[KernelEntry]) -> tuple[KernelEntry, ...]:
    """Sorted by operator name, the default kernel first, as the runtime's lookup expects."""
    return tuple(sorted(kernels, key=lambda k: (str(k.op), not k.key.is_default, str(k.key))))
