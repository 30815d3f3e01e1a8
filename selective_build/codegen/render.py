"""Rendering a target's generated C++ from its resolution.

Every choice is made here; the templates in `codegen/templates/` only format the sorted
lists they are given.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selective_build.codegen.declared_dtypes import tensor_arguments
from selective_build.codegen.kernel_library import KernelEntry, KernelLibrary
from selective_build.codegen.model import OperatorName
from selective_build.codegen.resolution import Resolution
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.unboxing import unboxing

TEMPLATES = Path(__file__).parent / "templates"
GENERATED_FILES = (
    "selected_kernels.cpp",
    "kernel_functions.h",
    "selected_op_variants.h",
    "selected_registry_size.h",
)
_ALL_DTYPES_MASK = (1 << 32) - 1


def render_sources(resolution: Resolution) -> dict[str, str]:
    """File name (relative to the target's gen/ folder) -> text of every generated source.

    Note [Per-source dtype headers]
    Besides the whole target's `selected_op_variants.h`, each kernel source gets one with
    only its own operators, in `ops/<source name>/`, and is compiled against that one.
    Selecting one more operator or dtype then changes the header of one source only, so
    only that kernel recompiles, not every dtype-selective kernel of the target.
    """
    registration = registration_context(resolution)
    return {
        "selected_kernels.cpp": render_template("selected_kernels.cpp.j2", registration),
        "kernel_functions.h": render_template("kernel_functions.h.j2", registration),
        "selected_registry_size.h": render_template(
            "selected_registry_size.h.j2", {"capacity": resolution.registry_slots}
        ),
        **render_dtype_headers(resolution),
    }


def render_dtype_headers(resolution: Resolution) -> dict[str, str]:
    """The whole target's `selected_op_variants.h` and each kernel source's (Note [Per-source
    dtype headers]): what the kernels compile against, whichever runtime registers them."""
    files = {"selected_op_variants.h": render_op_dtypes(resolution.op_dtypes)}
    for folder, op_dtypes in sorted(_dtypes_by_source(resolution).items()):
        files[f"{folder}/selected_op_variants.h"] = render_op_dtypes(op_dtypes)
    return files


def render_declared_headers(
    resolution: Resolution, libraries: Sequence[KernelLibrary]
) -> dict[tuple[str, Path], str]:
    """(library, kernel source) -> the declared_op_dtypes.h of each source the resolution
    compiles, whichever runtime registers them (BuildPaths.declared_dtypes_header)."""
    by_name = {library.name: library for library in libraries}
    sources = sorted({(kernel.library, kernel.source) for kernel in resolution.kernels})
    return {
        (name, source): render_declared_dtypes(by_name[name], source) for name, source in sources
    }


def render_declared_dtypes(library: KernelLibrary, source: Path) -> str:
    """The `declared_op_dtypes.h` of one kernel source: what its library's entries declare
    for the operators the source defines (Note [Declared dtypes], codegen/declared_dtypes.py).
    A function of the library alone, so every target's kernels share it."""
    rows = []
    entries = {kernel.op: kernel for kernel in library.kernels if kernel.source == source}
    for op, kernel in sorted(entries.items()):
        declared = kernel.declared
        rows.append(_declared_row(op, "", None if declared is None else declared.dtypes))
        for argument in tensor_arguments(kernel.schema):
            dtypes = None if declared is None else declared.of(argument)
            rows.append(_declared_row(op, argument, dtypes))
    context = {"library": library.name, "source": source.name, "rows": rows}
    return render_template("declared_op_dtypes.h.j2", context)


def _declared_row(
    op: OperatorName, argument: str, dtypes: frozenset[ScalarType] | None
) -> dict[str, str]:
    """One row: every dtype (DtypeSet::all(), ScalarTypes 0 to 29) when none is declared."""
    kept = frozenset(ScalarType) if dtypes is None else dtypes
    mask = sum(1 << dtype.number for dtype in kept)
    comment = "every dtype" if dtypes is None else _names(dtypes)
    return {"op": str(op), "argument": argument, "mask": f"0x{mask:08x}u", "comment": comment}


def per_source_dir(source: Path) -> str:
    """Where, under gen/, the dtype header of one kernel source lives: beside the other
    sources of its folder (one per library), apart from other libraries' op_<name>.cpp."""
    return f"ops/{source.parent.name}/{source.stem}"


def _dtypes_by_source(
    resolution: Resolution,
) -> dict[str, dict[OperatorName, frozenset[ScalarType] | None]]:
    """Per source's header folder, its operators and the dtypes its kernels serve (Note
    [Dtype fallback chain]). Two libraries' sources in folders of one name would share a
    header: it then holds the union of both, more than either needs but never less."""
    grouped: dict[str, dict[OperatorName, frozenset[ScalarType] | None]] = {}
    for kernel in resolution.kernels:
        ops = grouped.setdefault(per_source_dir(kernel.source), {})
        dtypes = resolution.kernel_dtypes(kernel)
        if kernel.op in ops:
            before = ops[kernel.op]
            dtypes = None if before is None or dtypes is None else before | dtypes
        ops[kernel.op] = dtypes
    return grouped


def render_op_dtypes(op_dtypes: Mapping[OperatorName, frozenset[ScalarType] | None]) -> str:
    return render_template("selected_op_variants.h.j2", {"op_dtypes": _op_dtypes(op_dtypes)})


def render_template(template: str, context: Mapping[str, Any]) -> str:
    """Render one of codegen/templates; only HTML templates escape what they format."""
    text: str = _environment().get_template(template).render(**context)
    return text


@functools.cache
def _environment() -> Any:
    """One jinja2 environment per process: it keeps the compiled templates, and codegen
    renders one header per kernel source."""
    # jinja2 costs ~45 ms to import: only the actions that render pay for it.
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=lambda name: name is not None and name.endswith(".html.j2"),
    )


def registration_context(resolution: Resolution) -> dict[str, Any]:
    """The typed declarations (by namespace), one unboxing wrapper per kernel function, and
    the registry's rows (each: name, key literal, wrapper, layout literal); what both
    runtimes' registrations format. A function serving several keys of its operator is declared and
    wrapped once."""
    functions: dict[str, KernelEntry] = {}
    for kernel in resolution.kernels:
        functions.setdefault(kernel.function, kernel)
    namespaces: dict[str, list[dict[str, str]]] = {}
    wrappers = []
    for function, kernel in sorted(functions.items()):
        generated = unboxing(kernel.schema, function)  # checked when the YAML was read
        namespaces.setdefault(function.rpartition("::")[0], []).append(
            {"op": str(kernel.op), "declaration": generated.declaration}
        )
        wrappers.append(
            {"op": str(kernel.op), "name": _wrapper_name(function), "call": generated.call}
        )
    rows = []
    for kernel in resolution.kernels:
        chain = resolution.chains.get(kernel.op) if kernel.key.is_default else None
        if chain is None:
            rows.append(_kernel_row(kernel))
        elif kernel == chain[0]:  # the chain's one row, dispatching to its kernels
            rows.append({**_kernel_row(kernel), "wrapper": _dispatch_name(kernel.op)})
    return {
        "declarations": sorted(namespaces.items()),
        "wrappers": wrappers,
        "dispatchers": [_dispatcher(op, chain) for op, chain in sorted(resolution.chains.items())],
        "kernels": rows,
    }


def _dispatch_name(op: OperatorName) -> str:
    """`aten::addmm.out` -> `dispatch_aten__addmm_out`: distinct per operator, never a
    kernel wrapper's name (those start with `unbox_`)."""
    return "dispatch_" + str(op).replace("::", "__").replace(".", "_")


def _dispatcher(op: OperatorName, chain: tuple[KernelEntry, ...]) -> dict[str, Any]:
    """Note [Dtype fallback chain] (codegen/resolution.py): each kernel but the last with the
    mask of the dtypes it declares, the last called for anything else."""
    cases = []
    for kernel in chain[:-1]:
        assert kernel.dtypes is not None  # a kernel declaring nothing serves every dtype
        mask = sum(1 << dtype.number for dtype in kernel.dtypes)
        cases.append({"mask": f"0x{mask:08x}u", "wrapper": _wrapper_name(kernel.function)})
    return {
        "op": str(op),
        "name": _dispatch_name(op),
        "cases": cases,
        "last": _wrapper_name(chain[-1].function),
    }


def _wrapper_name(function: str) -> str:
    """`portable::add_out` -> `unbox_portable__add_out` (`__` for `::`, which C++ names in
    kernel libraries do not contain, so two functions never share a wrapper name)."""
    return "unbox_" + function.replace("::", "__")


def _kernel_row(kernel: KernelEntry) -> dict[str, str]:
    key = "nullptr" if kernel.key.is_default else f'"{kernel.key}"'
    return {
        "name": str(kernel.op),
        "key": key,
        "wrapper": _wrapper_name(kernel.function),
        "layout": _layout_literal(unboxing(kernel.schema, kernel.function).layout),
    }


def _layout_literal(layout: str) -> str:
    """The C string runtime/kernel/unboxing.cpp reads: the number of values as one byte
    (octal, so no following letter extends the escape), then each value's code and name
    NUL-terminated."""
    entries = layout.split(" ")
    return f"\\{len(entries):03o}" + "\\0".join(entries)


def _op_dtypes(op_dtypes: Mapping[Any, frozenset[ScalarType] | None]) -> list[dict[str, str]]:
    rows = []
    for name, dtypes in sorted(op_dtypes.items()):
        if dtypes is None:
            mask, comment = _ALL_DTYPES_MASK, "every dtype"
        else:
            mask = sum(1 << dtype.number for dtype in dtypes)
            comment = _names(dtypes) or "none"
        rows.append({"name": str(name), "mask": f"0x{mask:08x}u", "comment": comment})
    return rows


def _names(dtypes: frozenset[ScalarType]) -> str:
    return ", ".join(dtype.name for dtype in sorted(dtypes, key=lambda dtype: dtype.number))
