"""Our own runtime (runtime/) behind the seam of Note [Target runtime] (codegen/plan/runtime.py):
its sources compiled beside the kernels and linked into the runner, the registration of
codegen/templates/selected_kernels.cpp.j2, the runner run as it is (or behind the
toolchain's emulator), and its parts (core, loader, executor, registry, runner) as size
buckets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.isa import isa_flags, needs_check
from selective_build.codegen.manifest import OPTIMIZED
from selective_build.codegen.plan.objects import common_flags
from selective_build.codegen.plan.package import PackageStep, package_step
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.runtime import Renderer, TargetContext
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.render import GENERATED_FILES, render_sources
from selective_build.codegen.resolution_file import ResolutionFile
from selective_build.codegen.scalar_type import ScalarType

# Note [Constant folding at load] (runtime/executor/fold.h) costs the smallest runner a page,
# so only targets whose programs can prepare constant weights with a layout kernel (an
# nn.Linear exports as permute_copy of its weight) compile it in, by this define on the
# sources that read it.
FOLD_DEFINE = "-DRT_FOLD_CONSTANTS"
FOLDING_KERNELS = frozenset({"op_permute_copy.cpp", "op_t_copy.cpp", "op_transpose_copy.cpp"})
# Note [Fusion at load] (runtime/executor/fuse.h) comes with it, by a define of its own: it
# is worth its code only where a kernel with a fused entry, the optimized library's
# convolution or matrix product, is linked.
FUSE_DEFINE = "-DRT_FUSE_CALLS"
FUSING_KERNELS = frozenset({"op_convolution.cpp", "op_mm.cpp", "op_addmm.cpp"})
# Note [Cats in place] (runtime/executor/place_cats.h), with fusion, only where a cat is
# linked: a Linear's runner has no cat to place, and no bytes to spare.
PLACE_CATS_DEFINE = "-DRT_PLACE_CATS"
CAT_KERNEL = "op_cat.cpp"
# Note [Channels last] (runtime/executor/channels_last.h), with fusion, where the optimized
# convolution is linked and every kernel is one of ours: the pass hands its calls tensors
# in a layout a kernel of another library may not expect.
CHANNELS_LAST_DEFINE = "-DRT_CHANNELS_LAST"
CONVOLUTION_KERNEL = "op_convolution.cpp"
# Note [Prepared weights] (runtime/kernel/kernel_context.h): compiled in, with the constant
# analysis of folding it needs, only where the optimized library's kernels that prepare
# their weights are linked.
PREPARE_DEFINE = "-DRT_PREPARE"
# Note [Quantized calls at load] (runtime/executor/quantize_calls.h): where the quantized
# library's quantize and the optimized library's quantized layers (in its matrix products'
# and convolution's sources, kernels/optimized/quantized_calls.h) are both linked.
QUANT_DEFINE = "-DRT_QUANT_CALLS"
QUANT_KERNELS = frozenset({"op_addmm.cpp", "op_convolution.cpp", "op_mm.cpp"})
QUANT_ANCHOR = "op_quantize_per_tensor.cpp"
PREPARING_KERNELS = frozenset(
    {"op_addmm.cpp", "op_bmm.cpp", "op_convolution.cpp", "op_linear.cpp", "op_mm.cpp"}
)
FOLDING_SOURCES = (
    "core/arena.cpp",
    "executor/instructions.cpp",
    "executor/method.cpp",
    "executor/fuse.cpp",
    "executor/place_cats.cpp",
    "executor/channels_last.cpp",
    "executor/quantize_calls.cpp",
    "runner/main.cpp",
)
# Compiles the minimal app's calls into the runtime (runtime/size_app/minimal_app.cpp).
WITH_LIBRARY_DEFINE = "-DSELECTIVE_WITH_LIBRARY"
REGISTRATION = "selected_kernels.cpp"
# Note [Instruction sets] (codegen/isa.py): the start-up check a runner links when its
# optimized kernels are compiled for more than the baseline; not part of the runtime.
STARTUP_DIR = "startup"
ISA_CHECK_SOURCE = "startup/isa_check.cpp"
# The size bucket of each folder of runtime/ (codegen/size_buckets.py names them).
PART_BUCKETS = {
    "core": "core",
    "loader": "loader",
    "executor": "executor",
    "kernel": "registry",
    "runner": "runner",
}


def runtime_sources(context: TargetContext, sources: Iterable[Path]) -> list[Path]:
    """The runtime's translation units among `sources` (every .cpp below runtime/):
    size_app/ is the minimal app a library-only target is measured with, executorch/
    ExecuTorch's runtime's side (codegen/plan/executorch.py), neither ours; startup/ is the
    check a runner links when it needs it (isa_check_object), not runtime."""
    paths = context.paths
    other = (
        paths.size_app_source.parent,
        paths.runtime_dir / "executorch",
        paths.runtime_dir / STARTUP_DIR,
    )
    return sorted(s for s in sources if not any(folder in s.parents for folder in other))


def is_builtin(paths: BuildPaths, source: Path) -> bool:
    """Whether `source` is one of our libraries' kernels: under the built-in kernels, or a
    link to them (a manifest may name them through one; the links are resolved only for a
    path not under them by name, so the default manifest's builds read none)."""
    builtin = paths.builtin_kernels_dir
    return source.is_relative_to(builtin) or source.resolve().is_relative_to(builtin.resolve())


def bool_constants_source(context: TargetContext) -> Path:
    """The loader source whose Bool constant check depends on the dtype selection."""
    return context.paths.runtime_dir / "loader" / "values.cpp"


def selects_bool(context: TargetContext) -> bool:
    """Whether an operator of a dtype-selective target keeps Bool, from the target's
    resolution (what its selected_op_variants.h is rendered from); with no resolution yet,
    the safe answer."""
    path = context.paths.resolution(context.target.name)
    text = context.disk.text(path)
    return text is None or ResolutionFile.from_json(text, path).keeps(ScalarType.Bool)


def isa_check_object(context: TargetContext) -> CompileStep:
    """The start-up check of Note [Instruction sets], compiled with the instruction set's
    flags (its preprocessor says what to check; its code is kept to the baseline)."""
    paths, toolchain = context.paths, context.toolchain
    source = paths.runtime_dir / ISA_CHECK_SOURCE
    driver = toolchain.compile_command()
    flags = (*common_flags(paths, toolchain), *isa_flags(toolchain.isa))
    folder = paths.shared_object_dir(toolchain.name, driver + flags)
    return CompileStep(source, paths.object_path(folder, source), flags, driver)


@dataclass(frozen=True)
class OurRuntime:
    """Note [Target runtime]: the runtime under runtime/, `runtime = "ours"`."""

    context: TargetContext

    def record(self) -> Mapping[str, str]:
        return {}

    def generated_files(self) -> tuple[str, ...]:
        return GENERATED_FILES

    def renderer(self) -> Renderer:
        return render_sources

    def runtime_objects(self, kernel_sources: Sequence[Path]) -> list[CompileStep]:
        """Every .cpp of runtime/ but the size app, shared where Note [Shared objects]
        (codegen/plan/objects.py) allows: constant folding compiled in when a kernel can
        fold (FOLD_DEFINE), fusion with it when a kernel has a fused entry (FUSE_DEFINE), and
        with fusion placing cats where a cat is linked (PLACE_CATS_DEFINE) and giving
        activations the channels-last layout where the optimized convolution is (and every
        kernel is ours: CHANNELS_LAST_DEFINE),
        prepared weights when a kernel prepares them (PREPARE_DEFINE), the Bool constants
        check of a dtype-selective target by one bit of its selection, and the start-up
        check of the optimized kernels' instruction set (isa_check_object)."""
        paths, target, toolchain = self.context.paths, self.context.target, self.context.toolchain
        driver = toolchain.compile_command()
        common = common_flags(paths, toolchain)
        shared_dir = paths.shared_object_dir(toolchain.name, driver + common)
        optimized = paths.builtin_kernels_dir / OPTIMIZED
        fuses = any(s.name in FUSING_KERNELS and s.parent == optimized for s in kernel_sources)
        prepares = any(
            s.name in PREPARING_KERNELS and s.parent == optimized for s in kernel_sources
        )
        quantizes = any(
            s.name in QUANT_KERNELS and s.parent == optimized for s in kernel_sources
        ) and any(s.name == QUANT_ANCHOR for s in kernel_sources)
        folds = fuses or prepares or any(s.name in FOLDING_KERNELS for s in kernel_sources)
        cats = fuses and any(s.name == CAT_KERNEL for s in kernel_sources)
        lays_out = (
            fuses
            and any(s.name == CONVOLUTION_KERNEL and s.parent == optimized for s in kernel_sources)
            and all(is_builtin(paths, s) for s in kernel_sources)
        )
        defines = (
            ((FUSE_DEFINE,) if fuses else ())
            + ((PLACE_CATS_DEFINE,) if cats else ())
            + ((CHANNELS_LAST_DEFINE,) if lays_out else ())
            + ((PREPARE_DEFINE,) if prepares else ())
            + ((QUANT_DEFINE,) if quantizes else ())
        )
        folding = (*common, FOLD_DEFINE, *defines)
        folding_dir = paths.shared_object_dir(toolchain.name, driver + folding)
        bool_source = bool_constants_source(self.context)
        sources = runtime_sources(self.context, self.context.disk.files(paths.runtime_dir, ".cpp"))
        objects = [
            CompileStep(s, paths.object_path(folding_dir, s), folding, driver)
            if folds and s.relative_to(paths.runtime_dir).as_posix() in FOLDING_SOURCES
            else CompileStep(s, paths.object_path(shared_dir, s), common, driver)
            for s in sources
            if not (s == bool_source and target.dtype_selective)
        ]
        linked = any(s.parent == optimized for s in kernel_sources)
        if target.runner and needs_check(toolchain.isa) and linked:
            objects.append(isa_check_object(self.context))
        if target.dtype_selective:
            # Note [Bool constants] in runtime/loader/values.cpp: the check is compiled in
            # only when a selected operator takes Bool. One bit of the selection, on the
            # command line: the object is shared by every target with the same bit, and
            # recompiled only when the bit changes (not with every operator the target gains).
            bit = int(selects_bool(self.context))
            flags = (*common, f"-DRT_BOOL_CONSTANTS={bit}")
            # Beside the toolchain's other shared objects, named by the bit.
            shared = paths.object_path(shared_dir, bool_source)
            name = f"{shared.stem}.bool{bit}.o"
            objects.append(CompileStep(bool_source, shared.with_name(name), flags, driver))
        return objects

    def registration_objects(self) -> list[CompileStep]:
        paths, target, toolchain = self.context.paths, self.context.target, self.context.toolchain
        gen = paths.gen_dir(target.name)
        flags = (*common_flags(paths, toolchain), f"-I{gen}")
        output = paths.target_object_dir(target.name) / "selected_kernels.o"
        return [CompileStep(gen / REGISTRATION, output, flags, toolchain.compile_command())]

    def link_libraries(self) -> tuple[str, ...]:
        return ()  # every part of the runtime is an object of the link

    def library_objects(self, objects: Sequence[CompileStep]) -> list[CompileStep]:
        """Every object but the runner's command line (runtime/runner/) and its start-up
        check (runtime/startup/)."""
        runtime = self.context.paths.runtime_dir
        runner_only = (runtime / "runner", runtime / STARTUP_DIR)
        return [
            step
            for step in objects
            if not any(folder in step.source.parents for folder in runner_only)
        ]

    def size_app_objects(self) -> tuple[CompileStep, CompileStep]:
        """They read no generated header, so every library-only target of a toolchain
        shares them."""
        paths, toolchain = self.context.paths, self.context.toolchain
        source = paths.size_app_source
        driver = toolchain.compile_command()
        common = common_flags(paths, toolchain)
        steps = []
        for flags in (common, (*common, WITH_LIBRARY_DEFINE)):
            folder = paths.shared_object_dir(toolchain.name, driver + flags)
            steps.append(CompileStep(source, paths.object_path(folder, source), flags, driver))
        return steps[0], steps[1]

    def package(self, version: str) -> PackageStep:
        paths = self.context.paths
        headers = self.context.disk.files(paths.runtime_dir, ".h")
        return package_step(paths, self.context.target.name, version, headers)

    def run_prefix(self) -> tuple[str, ...]:
        return self.context.toolchain.emulator

    def run_environment(self) -> tuple[tuple[str, str], ...]:
        return ()

    def bucket(self, source: Path) -> str | None:
        if source.name == REGISTRATION and source.parent == self.context.paths.gen_dir(
            self.context.target.name
        ):
            return "registration"
        runtime = self.context.paths.runtime_dir
        if runtime not in source.parents:
            return None
        part = source.relative_to(runtime).parts[0]
        return PART_BUCKETS.get(part, "core")

    def prebuilt(self) -> tuple[Path, ...]:
        return ()

    def non_selective(self) -> Path | None:
        return None  # the size baseline (size_baseline = true) builds the alternative

    def provided_backends(self) -> frozenset[str] | None:
        return None  # Note [Our runtime has no backends] (codegen/backends.py)
