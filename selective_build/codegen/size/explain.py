"""Answers from the size reports: why an operator (or one dtype of it) is in a runner,
who provides it and what it costs; what dropping a model from a target would save.

Works on the size documents of built targets (target name -> document).
"""

from __future__ import annotations

from collections.abc import Mapping

from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.size.document import BucketRow, SizeDocument
from selective_build.codegen.units import format_size


def explain_operator(
    documents: Mapping[str, SizeDocument], op: str, dtype: str | None = None
) -> list[str]:
    """One paragraph per target; `op` is `ns::name.overload` or `ns::name` (every overload)."""
    wanted = ScalarType.from_name(dtype) if dtype else None
    lines: list[str] = []
    for target, document in sorted(documents.items()):
        rows = [r for r in document.kernel_table if _matches(r.op, op)]
        if not rows:
            lines.append(f"{target}: does not register {op}")
            continue
        buckets = {b.name: b for b in document.buckets}
        for row in rows:
            bucket = buckets.get(row.bucket, _EMPTY)
            shared = [o for o in bucket.operators if o != row.op]
            cost = f"{format_size(bucket.bytes)} in {row.bucket}"
            if shared:
                cost += f" (shared with {', '.join(shared)})"
            key = "" if row.key == "default" else f" [{row.key}]"
            lines.append(
                f"{target}: {row.op}{key} is selected by {', '.join(row.selected_by)}; "
                f"kernel {row.function} from library {row.library}; costs {cost}"
            )
            if wanted is not None:
                own = bucket.dtypes.get(wanted.name)
                lines.append(
                    f"{target}: {row.op} for {wanted.name}: "
                    + (
                        f"{own:,} B of code instantiated for {wanted.name} only"
                        if own
                        else f"no code instantiated for {wanted.name} alone"
                    )
                )
    return lines


def explain_model(documents: Mapping[str, SizeDocument], model: str) -> list[str]:
    """Per target running `model` (named as in the manifest): the operators only it
    selects and the bytes saved."""
    lines: list[str] = []
    for target, document in sorted(documents.items()):
        if model not in document.config.models:
            continue
        only = sorted({r.op for r in document.kernel_table if r.selected_by == (model,)})
        saved = document.model_savings.get(model, 0)
        lines.append(
            f"{target}: dropping {model} would save about {format_size(saved)}"
            + (
                f" (operators only it selects: {', '.join(only)})"
                if only
                else " (no operator is its alone)"
            )
        )
    if not lines:
        lines.append(f"no built target runs model {model}")
    return lines


# A kernel whose bucket the report does not list costs nothing (a library-only target lists
# only the buckets that grew the app: the linker may drop a kernel no call reaches).
_EMPTY = BucketRow("", 0, 0, 0, 0.0, "", (), (), {}, ())


def _matches(registered: str, asked: str) -> bool:
    return registered == asked or ("." not in asked and registered.partition(".")[0] == asked)
