"""For the plan's tests: a runtime's `Disk` (codegen/plan/runtime.py) over listed files (the
plan reads nothing itself, so its tests hand it the files a build would find), our runtime
made with it, and a second, test-only runtime that the seam must take with no stage change."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.manifest import Target, Toolchain
from selective_build.codegen.package import PackageInfo
from selective_build.codegen.plan.ours import OurRuntime
from selective_build.codegen.plan.package import PackageStep
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.runtime import Renderer, TargetContext
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.resolution import Resolution


@dataclass(frozen=True)
class ListedDisk:
    listed: tuple[Path, ...] = ()
    texts: Mapping[Path, str] = field(default_factory=dict)

    def files(self, folder: Path, suffix: str) -> list[Path]:
        return sorted(p for p in self.listed if folder in p.parents and p.name.endswith(suffix))

    def text(self, path: Path) -> str | None:
        return self.texts.get(path)

    def compiler_machine(self, driver: tuple[str, ...]) -> str | None:
        return None


def ours(
    paths: BuildPaths,
    target: Target,
    toolchain: Toolchain,
    files: Iterable[Path] = (),
    texts: Mapping[Path, str] | None = None,
) -> OurRuntime:
    """Our runtime for `target`, finding `files` below runtime/ and the generated `texts`."""
    disk = ListedDisk(tuple(files), texts or {})
    return OurRuntime(TargetContext(paths, target, toolchain, disk))


def render_toy(resolution: Resolution) -> Mapping[str, str]:
    """The toy runtime's registration: one line per kernel."""
    return {"toy_registration.cpp": "".join(f"// {k.op}\n" for k in resolution.kernels)}


@dataclass(frozen=True)
class ToyRuntime:
    """A second runtime for the tests alone (Note [Target runtime]): a runner of its own, a
    prebuilt library linked after the objects with an rpath, an environment to run in, a
    package of its own and a non-selective prebuilt part. The stages must build it with no
    change of theirs (tests/codegen/test_plan_runtime.py, tests/tasks/test_runtimes.py)."""

    context: TargetContext

    def record(self) -> Mapping[str, str]:
        return {"runtime": "toy", "toy": "1.0"}

    def generated_files(self) -> tuple[str, ...]:
        return ("toy_registration.cpp",)

    def renderer(self) -> Renderer:
        return render_toy

    def _step(self, source: Path, flags: tuple[str, ...]) -> CompileStep:
        folder = self.context.paths.target_object_dir(self.context.target.name)
        output = self.context.paths.object_path(folder, source)
        return CompileStep(source, output, flags, self.context.toolchain.compile_command())

    def runtime_objects(self, kernel_sources: Sequence[Path]) -> list[CompileStep]:
        return [self._step(TOY_RUNNER, ("-Itoy/include", "-DTOY_RUNNER"))]

    def registration_objects(self) -> list[CompileStep]:
        gen = self.context.paths.gen_dir(self.context.target.name)
        return [self._step(gen / "toy_registration.cpp", ("-Itoy/include", f"-I{gen}"))]

    def link_libraries(self) -> tuple[str, ...]:
        return TOY_LIBRARIES

    def library_objects(self, objects: Sequence[CompileStep]) -> list[CompileStep]:
        return [step for step in objects if step.source != TOY_RUNNER]

    def size_app_objects(self) -> tuple[CompileStep, CompileStep]:
        app = Path("toy/app.cpp")
        return self._step(app, ()), self._step(app, ("-DTOY_WITH_LIBRARY",))

    def package(self, version: str) -> PackageStep:
        paths, name = self.context.paths, self.context.target.name
        return PackageStep(
            PackageInfo(name, version),
            paths.package_dir(name),
            ((Path("lib/libtoy_kernels.a"), paths.runtime_library(name)),),
            ((Path("lib/cmake/ToyKernels/ToyKernelsConfig.cmake"), "find_package(toy)\n"),),
        )

    def run_prefix(self) -> tuple[str, ...]:
        return ("toy-launch",)

    def run_environment(self) -> tuple[tuple[str, str], ...]:
        return (("LD_LIBRARY_PATH", "toy/lib"),)

    def bucket(self, source: Path) -> str | None:
        if source == TOY_RUNNER:
            return "runner"
        return "registration" if source.name == "toy_registration.cpp" else None

    def prebuilt(self) -> tuple[Path, ...]:
        return (TOY_PREBUILT,)

    def non_selective(self) -> Path | None:
        return None

    def provided_backends(self) -> frozenset[str] | None:
        return frozenset({"ToyBackend"})


TOY_RUNNER = Path("toy/runner.cpp")
TOY_PREBUILT = Path("toy/lib/libtoy.so")
TOY_LIBRARIES = (
    "-Ltoy/lib",
    "-Wl,--no-as-needed",
    "-ltoy_backend",
    "-Wl,--as-needed",
    "-ltoy",
    "-Wl,-rpath,toy/lib",
)
