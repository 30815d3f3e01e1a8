"""The manifest's data model: frozen dataclasses, built once by codegen/manifest/__init__.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.model import OperatorName

DEFAULT_TOOLCHAIN = "host"
# The runtimes a target may build for (`runtime = "..."`; Note [Target runtime] in
# codegen/plan/runtime.py): each has one implementation in codegen/plan/runtimes.py.
OURS = "ours"
EXECUTORCH = "executorch"  # ExecuTorch's own runtime, from its install (codegen/plan/executorch.py)
RUNTIMES = (OURS, EXECUTORCH)
# The most bytes verification lets a model's outputs take together, unless its table's
# `output_limit` says otherwise (docs/verification.md): a program of a few hundred bytes
# can plan gigabytes of output, which the runner would fill and write.
DEFAULT_OUTPUT_LIMIT = 64 << 20


@dataclass(frozen=True)
class Toolchain:
    """How to compile and link for one kind of device."""

    name: str
    compiler: str
    launcher: str | None
    cflags: tuple[str, ...]
    ldflags: tuple[str, ...]
    strip: str
    ar: str = "ar"  # makes the runtime static library users link into their own app
    # A command prefix that runs this toolchain's programs here (CMake's
    # CMAKE_CROSSCOMPILING_EMULATOR), e.g. ("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu").
    emulator: tuple[str, ...] = ()
    # Note [Instruction sets] (codegen/isa.py): the level the optimized library's objects
    # are compiled for (None: no flag), and whether the build machine chose it (`best`).
    isa: str | None = None
    isa_from_machine: bool = False
    # Where compiler, flags and emulator were read from, if they were (Note [CMake toolchain
    # files] in codegen/manifest/cmake_toolchain.py): part of what the tasks are made from.
    cmake_toolchain_file: Path | None = None
    # The ExecuTorch install the toolchain's `runtime = "executorch"` targets build against
    # (codegen/executorch/install.py); None: the executorch package the build's Python imports.
    executorch: Path | None = None

    def compile_command(self) -> tuple[str, ...]:
        """The compiler, behind its launcher (ccache, sccache, ...) when there is one."""
        return ((self.launcher,) if self.launcher else ()) + (self.compiler,)

    def isa_phrase(self) -> str:
        """`isa x86-64-v4 (the build machine's best)`: what the summary line says."""
        chosen = " (the build machine's best)" if self.isa_from_machine else ""
        return f"isa {self.isa}{chosen}"


@dataclass(frozen=True)
class Library:
    """A kernel library: its ExecuTorch-style functions.yaml and its sources folder."""

    name: str
    functions: Path
    sources: Path
    # Note [Library cflags] (codegen/manifest/builtins.py): after the toolchain's, for this
    # library's objects only.
    cflags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Model:
    """A `.pte` program with optional reference inputs and outputs: `.npy` files, or one
    `.npz` archive each (Note [Reference archives] in codegen/references.py)."""

    name: str
    path: Path
    method: str
    inputs: tuple[Path, ...]
    outputs: tuple[Path, ...]
    output_limit: int = DEFAULT_OUTPUT_LIMIT  # bytes, all outputs together


@dataclass(frozen=True)
class Target:
    """One runner to build: which models it runs and how it is trimmed."""

    name: str
    models: tuple[str, ...]
    libraries: tuple[str, ...]
    extra_ops: tuple[OperatorName, ...]
    # The --ops_dict form: operator -> dtype names or kernel keys (empty: every dtype).
    op_dtypes: Mapping[str, tuple[str, ...]]
    op_schemas: tuple[Path, ...]  # functions.yaml / custom_ops.yaml: all their operators
    selections: tuple[Path, ...]  # selected_operators.yaml files handed to us
    include_all_operators: bool
    dtype_selective: bool
    size_budget: int | None
    toolchain: str
    # Limits on other measures (text, data, bss) and on attribution buckets, in bytes.
    size_budgets: Mapping[str, int] = field(default_factory=dict)
    # The target whose runner the size report compares with: another one of the manifest,
    # or (`size_baseline = true`) the all-operators target made for it (all_operators_name).
    size_baseline: str | None = None
    # False: a library-only target. No runner is linked and nothing is verified; its size
    # is what the library adds to a minimal app (Note [Library-only size], tasks/size.py).
    runner: bool = True
    # Note [Threads] (kernels/optimized/parallel.h): kernels split their outer loops over
    # this many threads, the calling one included.
    threads: int = 1
    # The runtime the runner is built on (RUNTIMES).
    runtime: str = OURS
    # Delegate backends to link besides those its models call (codegen/backends.py).
    backends: tuple[str, ...] = ()


@dataclass(frozen=True)
class Manifest:
    path: Path
    toolchains: Mapping[str, Toolchain]
    libraries: Mapping[str, Library]
    models: Mapping[str, Model]
    targets: Mapping[str, Target]

    @property
    def root(self) -> Path:
        return self.path.parent


def default_toolchain() -> Toolchain:
    """The toolchain a manifest has without declaring it, and each field's default."""
    return Toolchain(DEFAULT_TOOLCHAIN, "c++", None, ("-Os",), (), "strip")


def all_operators_name(toolchain: str, libraries: Sequence[str]) -> str:
    """The target `size_baseline = true` adds: every operator of these libraries, every
    dtype, built with this toolchain. Its dots keep it apart from names a manifest can use,
    and targets with the same libraries and toolchain share it."""
    return "all-operators." + ".".join((toolchain, *libraries))


def all_operators_target(name: str, target: Target) -> Target:
    """The all-operators target `name` made for `target`'s size baseline."""
    return Target(
        name=name,
        models=(),
        libraries=target.libraries,
        extra_ops=(),
        op_dtypes={},
        op_schemas=(),
        selections=(),
        include_all_operators=True,
        dtype_selective=False,
        size_budget=None,
        toolchain=target.toolchain,
    )
