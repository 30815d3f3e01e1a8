"""Two runners for one selection, built by the compiler directly from what codegen renders
and lists, sharing the kernel objects: one on ExecuTorch's runtime (the registration, our
kernel sources unchanged, the adapter, the ExecuTorch runner, linked to the installed
wheel's libexecutorch.so), and one on ours (our registry and runtime), to compare them."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from codegen.executorch.build import link_flags, runtime_sources
from codegen.executorch.install import ExecutorchInstall
from codegen.executorch.registration import REGISTRATION_FILE, render_executorch_sources
from codegen.kernel_library import read_kernel_library
from codegen.plan.objects import BASE_CFLAGS
from codegen.render import per_source_dir, render_sources
from codegen.resolution import resolve
from codegen.selection import Selection
from tests.workspace import REPO

CFLAGS = (*BASE_CFLAGS, "-Os", f"-I{REPO}")
RUNTIME = REPO / "runtime"


@dataclass(frozen=True)
class Runners:
    executorch: Path
    ours: Path


def build_runners(
    folder: Path,
    install: ExecutorchInstall,
    selection: Selection,
    libraries: tuple[str, ...] = ("portable", "prim", "quantized"),
    backends: tuple[str, ...] = (),
    dtype_selective: bool = False,
    ours: bool = True,
) -> Runners:
    """Both runners (`ours`: else the ExecuTorch one alone), under `folder`, for the
    kernels `selection` resolves to in the built-in `libraries`."""
    kernels = REPO / "kernels"
    chosen = [
        read_kernel_library(n, kernels / n / "functions.yaml", kernels / n) for n in libraries
    ]
    resolution = resolve(selection, chosen, "t")
    gen, et_gen = folder / "gen", folder / "et_gen"
    _write(gen, render_sources(resolution))
    _write(et_gen, render_executorch_sources(resolution))
    sources = sorted({kernel.source for kernel in resolution.kernels})
    ours_support, adapter = runtime_sources(RUNTIME, runner=True)
    our_runtime = sorted(
        s for s in RUNTIME.rglob("*.cpp") if ours and not {"executorch", "size_app"} & set(s.parts)
    )

    def kernel_flags(source: Path) -> list[str]:
        if not dtype_selective:
            return [*CFLAGS]
        return [*CFLAGS, f"-I{gen / per_source_dir(source)}", "-DRT_DTYPE_SELECTIVE"]

    et_flags = [*CFLAGS, f"-I{et_gen}", *install.compile_flags()]
    commands: dict[Path, tuple[Path, list[str]]] = {}
    for source in sorted(set(our_runtime) | set(ours_support)):
        commands[folder / "obj" / source.relative_to(REPO).with_suffix(".o")] = (source, [*CFLAGS])
    for source in sources:
        commands[folder / "obj" / source.relative_to(REPO).with_suffix(".o")] = (
            source,
            kernel_flags(source),
        )
    if ours:
        registry = gen / "selected_kernels.cpp"
        commands[folder / "obj/selected_kernels.o"] = (registry, [*CFLAGS, f"-I{gen}"])
    for source in [*adapter, et_gen / REGISTRATION_FILE]:
        commands[folder / "et_obj" / f"{source.stem}.o"] = (source, et_flags)

    def compile_one(item: tuple[Path, tuple[Path, list[str]]]) -> None:
        target, (source, flags) = item
        target.parent.mkdir(parents=True, exist_ok=True)
        command = ["c++", *flags, "-c", str(source), "-o", str(target)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        assert result.returncode == 0, f"{' '.join(command)}\n{result.stderr}"

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(compile_one, commands.items()))

    def object_of(source: Path) -> Path:
        return folder / "obj" / source.relative_to(REPO).with_suffix(".o")

    # ExecuTorch registers its own prim ops: ours stay out of its runner.
    prim = kernels / "prim"
    et_kernels = [object_of(s) for s in sources if s.parent != prim]
    et_objects = [
        *(object_of(s) for s in ours_support),
        *et_kernels,
        *(folder / "et_obj" / f"{s.stem}.o" for s in [*adapter, et_gen / REGISTRATION_FILE]),
    ]
    our_objects = [
        *(object_of(s) for s in our_runtime),
        *(object_of(s) for s in sources),
        folder / "obj/selected_kernels.o",
    ]
    runners = Runners(folder / "executorch_runner", folder / "runner")
    _link(runners.executorch, et_objects, link_flags(install, backends))
    if ours:
        _link(runners.ours, our_objects, ())
    return runners


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def _link(output: Path, objects: list[Path], flags: tuple[str, ...]) -> None:
    command = ["c++", "-o", str(output), *map(str, objects), *flags]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
