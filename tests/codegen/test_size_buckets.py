"""The bucket vocabulary is a leaf: reading a manifest does not load the size stage's ELF code."""

from __future__ import annotations

import subprocess
import sys

from selective_build.codegen.size_buckets import FIXED_BUCKETS, KERNEL_PREFIX, is_known_bucket


def _modules_after_import(module: str) -> set[str]:
    # A fresh interpreter: this test process has long imported everything.
    script = f"import sys, {module}; print('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300
    )
    return set(result.stdout.split())


def test_importing_the_manifest_does_not_import_the_elf_code() -> None:
    loaded = _modules_after_import("selective_build.codegen.manifest")
    # The check below is about the right import.
    assert "selective_build.codegen.size_buckets" in loaded
    assert not any(name == "elftools" or name.startswith("elftools.") for name in loaded)
    assert not any(
        name in loaded
        for name in ("selective_build.codegen.size.elf", "selective_build.codegen.size.attribution")
    )


def test_known_buckets() -> None:
    assert all(is_known_bucket(name) for name in FIXED_BUCKETS)
    assert is_known_bucket(f"{KERNEL_PREFIX}portable/op_add")
    assert not is_known_bucket(f"{KERNEL_PREFIX}op_add")  # a kernel bucket names its library
    assert not is_known_bucket("kernels")
