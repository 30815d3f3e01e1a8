"""ExecuTorch's own runtime behind the seam of Note [Target runtime] (codegen/plan/runtime.py),
`runtime = "executorch"`: the target's kernels registered with ExecuTorch's kernel ABI
(codegen/executorch/registration.py, Note [ExecuTorch kernel adapter]), linked to the
install's prebuilt libexecutorch.so and the backends its programs delegate to; the runner
on ExecuTorch's Program/Method (runtime/executorch/runner.cpp).

The install is the toolchain's `executorch` folder, else the `executorch` package the
build's Python imports (codegen/executorch/install.py); it must be built for the
toolchain's processor (checked where the toolchain's objects are first linked: the link
stage). Backends: those the target's models delegate to (build/.models/<m>.info.json) and
its `backends` list (codegen/backends.py).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.backends import target_backends
from selective_build.codegen.executorch.build import RUNNER_SOURCES, link_flags, runtime_sources
from selective_build.codegen.executorch.install import (
    ALL_KERNELS_LIBRARY,
    ExecutorchInstall,
    check_machine,
    find_executorch,
)
from selective_build.codegen.executorch.package import (
    LIBRARY_FILE,
    NAME,
    ExecutorchPackageInfo,
    package_files,
)
from selective_build.codegen.executorch.registration import (
    GENERATED_FILES,
    REGISTRATION_FILE,
    render_executorch_sources,
)
from selective_build.codegen.model_info import ModelInfo
from selective_build.codegen.package import PackageInfo, cmake_version
from selective_build.codegen.plan.objects import common_flags
from selective_build.codegen.plan.package import PackageStep
from selective_build.codegen.plan.runtime import Renderer, TargetContext
from selective_build.codegen.plan.steps import CompileStep

WITH_LIBRARY_DEFINE = "-DSELECTIVE_WITH_LIBRARY"
SIZE_APP = "executorch/size_app.cpp"
PART_BUCKETS = {"core": "core", "kernel": "registry", "runner": "runner", "executorch": "adapter"}


@dataclass(frozen=True)
class ExecutorchRuntime:
    """Note [Target runtime]: ExecuTorch's runtime from its install, `runtime = "executorch"`."""

    context: TargetContext

    def __post_init__(self) -> None:
        """The install is found, and held to the toolchain's processor, when the runtime is
        made: a missing or foreign one is one line before anything builds."""
        toolchain = self.context.toolchain
        machine = self.context.disk.compiler_machine(toolchain.compile_command())
        if machine is not None:
            check_machine(self.install, machine, self.context.target.name, self._setting)

    @property
    def _setting(self) -> str:
        return f"toolchains.{self.context.toolchain.name}.executorch"

    @functools.cached_property
    def install(self) -> ExecutorchInstall:
        toolchain = self.context.toolchain
        return find_executorch(toolchain.executorch, self._setting, self.context.disk)

    @functools.cached_property
    def backends(self) -> tuple[str, ...]:
        """The backends the target links: its models' delegates and its own list."""
        paths, target = self.context.paths, self.context.target
        delegates = {}
        for model in target.models:
            text = self.context.disk.text(paths.model_info(model))
            if text is not None:
                delegates[model] = ModelInfo.from_json(text, paths.model_info(model)).delegates
        return target_backends(
            target.name, delegates, target.backends, frozenset(self.install.backends)
        )

    def record(self) -> Mapping[str, str]:
        """The install: another one, or another release there, reruns what it decided."""
        return {"executorch": f"{self.install.root} {self.install.version}"}

    def generated_files(self) -> tuple[str, ...]:
        return GENERATED_FILES

    def renderer(self) -> Renderer:
        return render_executorch_sources

    def _steps(self, sources: Sequence[Path], executorch_headers: bool) -> list[CompileStep]:
        paths, toolchain = self.context.paths, self.context.toolchain
        driver = toolchain.compile_command()
        flags = common_flags(paths, toolchain)
        if executorch_headers:
            flags = (*flags, *self.install.compile_flags())
        folder = paths.shared_object_dir(toolchain.name, driver + flags)
        return [CompileStep(s, paths.object_path(folder, s), flags, driver) for s in sources]

    def runtime_objects(self, kernel_sources: Sequence[Path]) -> list[CompileStep]:
        ours, adapter = runtime_sources(self.context.paths.runtime_dir, self.context.target.runner)
        return [*self._steps(ours, False), *self._steps(adapter, True)]

    def registration_objects(self) -> list[CompileStep]:
        paths, target, toolchain = self.context.paths, self.context.target, self.context.toolchain
        gen = paths.gen_dir(target.name)
        flags = (*common_flags(paths, toolchain), f"-I{gen}", *self.install.compile_flags())
        output = paths.target_object_dir(target.name) / "executorch_kernels.o"
        source = gen / REGISTRATION_FILE
        return [CompileStep(source, output, flags, toolchain.compile_command())]

    def link_libraries(self) -> tuple[str, ...]:
        return link_flags(self.install, self.backends)

    def library_objects(self, objects: Sequence[CompileStep]) -> list[CompileStep]:
        """Every object but the runner's: its command line and .npy code."""
        runtime = self.context.paths.runtime_dir
        runner = {runtime / s for s in RUNNER_SOURCES} | {runtime / "runner"}
        return [
            step
            for step in objects
            if step.source not in runner and runtime / "runner" not in step.source.parents
        ]

    def size_app_objects(self) -> tuple[CompileStep, CompileStep]:
        paths, toolchain = self.context.paths, self.context.toolchain
        source = paths.runtime_dir / SIZE_APP
        driver = toolchain.compile_command()
        common = (*common_flags(paths, toolchain), *self.install.compile_flags())
        steps = []
        for flags in (common, (*common, WITH_LIBRARY_DEFINE)):
            folder = paths.shared_object_dir(toolchain.name, driver + flags)
            steps.append(CompileStep(source, paths.object_path(folder, source), flags, driver))
        return steps[0], steps[1]

    def package(self, version: str) -> PackageStep:
        paths, target = self.context.paths, self.context.target.name
        info = ExecutorchPackageInfo(
            target, version, str(self.install.root / "share/cmake"), self.backends
        )
        written = {**package_files(info)}
        written[f"lib/cmake/{NAME}/{NAME}ConfigVersion.cmake"] = cmake_version(
            PackageInfo(target, version)
        )
        copies = ((Path("lib") / LIBRARY_FILE, paths.runtime_library(target)),)
        return PackageStep(
            PackageInfo(target, version),
            paths.package_dir(target),
            copies,
            tuple((Path(p), text) for p, text in sorted(written.items())),
        )

    def run_prefix(self) -> tuple[str, ...]:
        return self.context.toolchain.emulator

    def run_environment(self) -> tuple[tuple[str, str], ...]:
        return ()  # the runner's rpath names the install's lib/

    def bucket(self, source: Path) -> str | None:
        paths = self.context.paths
        if source == paths.gen_dir(self.context.target.name) / REGISTRATION_FILE:
            return "registration"
        runtime = paths.runtime_dir
        if runtime not in source.parents:
            return None
        if source == runtime / "executorch" / "runner.cpp":
            return "runner"
        return PART_BUCKETS.get(source.relative_to(runtime).parts[0], "core")

    def prebuilt(self) -> tuple[Path, ...]:
        libraries = [p for b in self.backends for p in self.install.backend_libraries(b)]
        return (self.install.runtime_library, *libraries)

    def non_selective(self) -> Path | None:
        library = self.install.lib_dir / ALL_KERNELS_LIBRARY
        return library if library in self.context.disk.files(self.install.lib_dir, ".so") else None

    def provided_backends(self) -> frozenset[str] | None:
        return frozenset(self.install.backends)
