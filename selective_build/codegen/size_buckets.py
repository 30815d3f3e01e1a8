"""The bucket vocabulary of a size report: the names budgets, the manifest and the reports
share. A leaf (standard library only), so that reading a manifest, which checks bucket
names in `size_budgets`, does not import the ELF code of the size stage.
"""

from __future__ import annotations

from pathlib import Path

# The measures of the whole file, as `size` (Berkeley) counts them, plus the file itself.
TOTALS = ("file", "text", "data", "bss")
SHARED_KERNELS = "kernels:shared"
TOOLCHAIN = "libc"
UNNAMED = "unnamed"
OVERHEAD = "overhead"
KERNEL_PREFIX = "kernel:"
REGISTRY_SLOT_BYTES = 32  # rt::Kernel on 64-bit: name, key, function and layout pointers
# Buckets that exist whatever the target selects (kernel buckets are per source file).
FIXED_BUCKETS = (
    "core",
    "loader",
    "executor",
    "registry",
    "runner",
    "registration",
    "adapter",
    SHARED_KERNELS,
    TOOLCHAIN,
    UNNAMED,
    OVERHEAD,
)
BUCKET_DOC = {
    "core": "runtime core: tensors, scalar types, arena (runtime/core)",
    "loader": ".pte loader (runtime/loader)",
    "executor": "executor (runtime/executor)",
    "registry": "kernel registry and argument access (runtime/kernel)",
    "runner": "runner command line and .npy I/O (runtime/runner)",
    "registration": "generated registration table (gen/selected_kernels.cpp, or on "
    "ExecuTorch's runtime gen/executorch_kernels.cpp)",
    "adapter": "our kernels' adapter to ExecuTorch's runtime (runtime/executorch)",
    SHARED_KERNELS: "helpers several kernels share (inline functions, templates)",
    TOOLCHAIN: "startup code and static parts of libc/libstdc++/libgcc",
    UNNAMED: "code and data without a symbol: string literals, alignment",
    OVERHEAD: "ELF overhead/padding: headers, dynamic linking tables, PLT/GOT, unwind",
}


def kernel_bucket(library: str, source: Path) -> str:
    """`kernel:portable/op_add`: one bucket per kernel source file (all its overloads)."""
    return f"{KERNEL_PREFIX}{library}/{source.stem}"


def is_known_bucket(name: str) -> bool:
    return name in FIXED_BUCKETS or (name.startswith(KERNEL_PREFIX) and "/" in name)
