"""One `[targets.<name>]` table of the manifest, read into a `Target`."""

from __future__ import annotations

from selective_build.codegen.manifest.key_path_reader import KeyPathReader
from selective_build.codegen.manifest.model import (
    DEFAULT_TOOLCHAIN,
    OURS,
    RUNTIMES,
    Target,
    all_operators_name,
)
from selective_build.codegen.size_buckets import (
    FIXED_BUCKETS,
    KERNEL_PREFIX,
    TOTALS,
    is_known_bucket,
)
from selective_build.codegen.toml_kind import kind

MAX_THREADS = 256
_KEYS = {
    "models",
    "libraries",
    "extra_ops",
    "op_dtypes",
    "op_schemas",
    "selections",
    "include_all_operators",
    "dtype_selective",
    "size_budget",
    "size_budgets",
    "size_baseline",
    "toolchain",
    "runner",
    "threads",
    "runtime",
    "backends",
}


def read_target(reader: KeyPathReader, name: str, value: object, key: str) -> Target:
    """The target `name`, from the table at `key`; references are checked later, when every
    table has been read (codegen/manifest/references.py)."""
    table = reader.table(value, key, _KEYS, {"libraries"})
    extra_ops = reader.strings(table.get("extra_ops", []), f"{key}.extra_ops")
    budget = table.get("size_budget")
    libraries = reader.strings(table["libraries"], f"{key}.libraries")
    toolchain = reader.typed(table.get("toolchain", DEFAULT_TOOLCHAIN), f"{key}.toolchain", str)
    return Target(
        name=name,
        models=reader.strings(table.get("models", []), f"{key}.models"),
        libraries=libraries,
        extra_ops=tuple(
            reader.operator(op, f"{key}.extra_ops[{i}]") for i, op in enumerate(extra_ops)
        ),
        op_dtypes=_op_dtypes(reader, table.get("op_dtypes", {}), f"{key}.op_dtypes"),
        op_schemas=reader.existing_files(table.get("op_schemas", []), f"{key}.op_schemas"),
        selections=reader.existing_files(table.get("selections", []), f"{key}.selections"),
        include_all_operators=reader.typed(
            table.get("include_all_operators", False), f"{key}.include_all_operators", bool
        ),
        dtype_selective=reader.typed(
            table.get("dtype_selective", False), f"{key}.dtype_selective", bool
        ),
        size_budget=None if budget is None else reader.size(budget, f"{key}.size_budget"),
        toolchain=toolchain,
        size_budgets=_size_budgets(reader, table.get("size_budgets", {}), f"{key}.size_budgets"),
        size_baseline=_size_baseline(
            reader, table.get("size_baseline"), all_operators_name(toolchain, libraries), key
        ),
        runner=reader.typed(table.get("runner", True), f"{key}.runner", bool),
        threads=_threads(reader, table.get("threads", 1), f"{key}.threads"),
        runtime=_runtime(reader, table.get("runtime", OURS), f"{key}.runtime"),
        backends=reader.strings(table.get("backends", []), f"{key}.backends"),
    )


def _runtime(reader: KeyPathReader, value: object, key: str) -> str:
    name = reader.typed(value, key, str)
    if name not in RUNTIMES:
        known = ", ".join(RUNTIMES)
        raise reader.fail(key, f"unknown runtime {name!r} (known: {known})")
    return name


def _threads(reader: KeyPathReader, value: object, key: str) -> int:
    count = reader.typed(value, key, int)
    if not 1 <= count <= MAX_THREADS:
        raise reader.fail(key, f"expected a thread count from 1 to {MAX_THREADS}, got {count}")
    return count


def _size_baseline(
    reader: KeyPathReader, value: object, all_operators: str, key: str
) -> str | None:
    """A target's name, or true: `all_operators`, the all-operators build of the target's
    libraries and toolchain."""
    if value is None or value is False:
        return None
    if value is True:
        return all_operators
    if not isinstance(value, str):
        raise reader.fail(
            f"{key}.size_baseline", f"expected true or a target's name, got {kind(value)}"
        )
    return value


def _size_budgets(reader: KeyPathReader, value: object, key: str) -> dict[str, int]:
    table = reader.typed(value, key, dict)
    budgets: dict[str, int] = {}
    # The file has its own key, size_budget: one limit per measure.
    measures = [m for m in TOTALS if m != "file"] + ["kernels"]
    for name, limit in table.items():
        if name == "file":
            raise reader.fail(f"{key}.'file'", "the runner file's limit is size_budget")
        if name not in measures and not is_known_bucket(name):
            known = ", ".join([*measures, *FIXED_BUCKETS, f"{KERNEL_PREFIX}<library>/op_<name>"])
            raise reader.fail(f"{key}.{name!r}", f"unknown measure or bucket ({known})")
        budgets[name] = reader.size(limit, f"{key}.{name!r}")
    return budgets


def _op_dtypes(reader: KeyPathReader, value: object, key: str) -> dict[str, tuple[str, ...]]:
    table = reader.typed(value, key, dict)
    entries = {op: reader.strings(items, f"{key}.{op!r}") for op, items in table.items()}
    from selective_build.codegen.selection import (
        Selection,  # only manifests with op_dtypes pay for it
    )

    for op, items in entries.items():
        try:
            Selection.from_op_dtypes({op: items}, key)
        except ValueError as error:
            raise reader.fail(f"{key}.{op!r}", str(error)) from None
    return entries
