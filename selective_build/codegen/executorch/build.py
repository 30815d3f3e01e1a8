"""What an ExecuTorch target compiles and links, beside its kernels and registration.

Our kernels need a few of our runtime's sources (the tensor type, the kernel context and
the layout check), the adapter (runtime/executorch/), and for the runner our .npy code; the
rest (loading, planning, executing, the prim ops) is ExecuTorch's `libexecutorch.so`. A
backend's library registers the backend from a static initializer and is named by no
symbol the runner uses, so it is linked with `--no-as-needed` (else the linker drops it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from selective_build.codegen.executorch.install import ExecutorchInstall

# Relative to the runtime folder: our sources the kernels and the adapter call into.
KERNEL_SUPPORT_SOURCES = (
    # The kernel context's prepare() takes method-long memory from an arena (Note [Prepared
    # weights]); ExecuTorch's runtime never prepares, but the static library must link.
    "core/arena.cpp",
    "core/scalar_type.cpp",
    "core/tensor.cpp",
    "kernel/kernel_context.cpp",
    "kernel/unboxing.cpp",
)
# Compiled against ExecuTorch's headers (ExecutorchInstall.compile_flags).
ADAPTER_SOURCES = ("executorch/kernel_adapter.cpp", "executorch/tensor_view.cpp")
# The runner's command line, and the .npy reading and writing it shares with ours.
RUNNER_SOURCES = ("executorch/runner.cpp",)
RUNNER_SUPPORT_SOURCES = ("runner/file_io.cpp", "runner/npy.cpp")


def link_flags(install: ExecutorchInstall, backends: Sequence[str]) -> tuple[str, ...]:
    """The link flags of a runner or library on `install` with `backends` (ids the install
    provides): ExecuTorch's runtime, then each backend's libraries kept although nothing
    names them, found at run time where they are (rpath)."""
    libraries = [path for backend in backends for path in install.backend_libraries(backend)]
    kept = ("-Wl,--no-as-needed", *(str(path) for path in libraries), "-Wl,--as-needed")
    return (
        str(install.runtime_library),
        *(kept if libraries else ()),
        f"-Wl,-rpath,{install.lib_dir}",
    )


def runtime_sources(runtime_dir: Path, runner: bool) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """(our sources compiled as the runtime's, those compiled against ExecuTorch's headers)
    of an ExecuTorch target; `runner`: with the runner's command line."""
    ours = KERNEL_SUPPORT_SOURCES + (RUNNER_SUPPORT_SOURCES if runner else ())
    adapter = ADAPTER_SOURCES + (RUNNER_SOURCES if runner else ())
    return (
        tuple(runtime_dir / source for source in ours),
        tuple(runtime_dir / source for source in adapter),
    )
