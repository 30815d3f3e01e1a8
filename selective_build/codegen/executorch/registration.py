"""The generated registration of a target's kernels with ExecuTorch's own runtime.

A `runtime = "executorch"` target registers the kernels its resolution chose through
ExecuTorch's kernel ABI: a table of `executorch::runtime::Kernel(name, [key,] fn)` handed to
`register_kernels` when the program starts. Each `fn` passes the call to the adapter
(Note [ExecuTorch kernel adapter] in runtime/executorch/kernel_adapter.h) with the row our
own registry would hold for the kernel, so the unboxing wrappers, the typed declarations
and the dtype headers are the ones our runtime's build renders, and the kernel sources
compile unchanged.

ExecuTorch's runtime registers its primitive operators itself (`EXECUTORCH_PRIM_OPS`); a
second registration of one aborts the program, so those rows are left out and ExecuTorch's
kernels serve them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import OperatorName
from selective_build.codegen.render import (
    registration_context,
    render_dtype_headers,
    render_template,
)
from selective_build.codegen.resolution import Resolution

# The kernels libexecutorch.so registers when it loads (ExecuTorch 1.5.1's
# kernels/prim_ops/register_prim_ops.cpp; tests/codegen/test_executorch_registration.py
# finds each name in the wheel's library when it is installed).
EXECUTORCH_PRIM_OPS = frozenset(
    OperatorName.parse(name)
    for name in (
        "aten::sym_size.int",
        "aten::_local_scalar_dense",
        "aten::sym_numel",
        *(
            f"executorch_prim::{op}.Scalar"
            for op in (
                "sym_max sym_min add sub mul floordiv truediv sym_float sym_int eq gt lt ge le "
                "neg sym_not sym_ite mod ceil round trunc"
            ).split()
        ),
        "executorch_prim::floordiv.int",
        "executorch_prim::mod.int",
        "executorch_prim::et_copy_index.tensor",
        "executorch_prim::et_view.default",
    )
)

REGISTRATION_FILE = "executorch_kernels.cpp"
# The generated files an ExecuTorch target always has: the registration, and as our own
# rendering writes them the typed declarations and the whole target's dtype header.
GENERATED_FILES = (REGISTRATION_FILE, "kernel_functions.h", "selected_op_variants.h")


def without_executorch_prims(resolution: Resolution) -> Resolution:
    """The resolution less the operators ExecuTorch's runtime registers itself."""
    kept = tuple(k for k in resolution.kernels if k.op not in EXECUTORCH_PRIM_OPS)
    return dataclasses.replace(
        resolution,
        kernels=kept,
        op_dtypes={
            op: d for op, d in resolution.op_dtypes.items() if op not in EXECUTORCH_PRIM_OPS
        },
        chains={op: c for op, c in resolution.chains.items() if op not in EXECUTORCH_PRIM_OPS},
    )


def render_executorch_sources(resolution: Resolution) -> dict[str, str]:
    """File name (relative to the target's gen/ folder) -> text, for an ExecuTorch target.

    `resolution` is the target's whole resolution; InputError: a specialized kernel key
    ExecuTorch's lookup cannot match (`_check_key_matches`)."""
    ours = without_executorch_prims(resolution)
    context = registration_context(ours)
    rows = [_executorch_row(row, index, ours) for index, row in enumerate(context["kernels"])]
    files = render_dtype_headers(ours)
    files["kernel_functions.h"] = render_template("kernel_functions.h.j2", context)
    files[REGISTRATION_FILE] = render_template(
        "executorch_kernels.cpp.j2", {**context, "rows": rows}
    )
    return files


def _executorch_row(row: dict[str, str], index: int, resolution: Resolution) -> dict[str, Any]:
    """Our registry row, plus the name of its ExecuTorch function (by index: two keys of an
    operator may share a wrapper) and ExecuTorch's key."""
    name = row["name"]
    key = row["key"]
    if key != "nullptr":
        _check_key_matches(OperatorName.parse(name), resolution)
    return {**row, "function": f"executorch_kernel_{index}", "executorch_key": key}


def _check_key_matches(op: OperatorName, resolution: Resolution) -> None:
    """ExecuTorch builds the key it looks a kernel up by from the call's Tensor values only,
    leaving tensor lists out (executorch-facts.md §2.2); our keys, as gen_oplist's, count a
    list's first tensor. They agree exactly when the schema has no tensor list, argument or
    return slot."""
    kernel = next(k for k in resolution.kernels if k.op == op and not k.key.is_default)
    schema = kernel.schema
    has_list = any(a.type.base == "Tensor" and a.type.is_list for a in schema.arguments)
    has_list = has_list or (len(schema.out_arguments) > 1)
    if has_list:
        raise InputError(
            f"kernel library {kernel.library}",
            f"{op}: a kernel registered for a specialized key cannot be found by "
            "ExecuTorch's runtime, whose keys leave tensor lists out; serve the operator "
            'with a default kernel (arg_meta: null) on runtime = "executorch" targets',
        )
