from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from selective_build.codegen.manifest import Library, Target, Toolchain
from selective_build.codegen.plan import objects as plan
from selective_build.codegen.plan.steps import CompileStep
from selective_build.tasks.compile_action import compile_object
from selective_build.tasks.engine.evidence import Evidence, Reads
from selective_build.tasks.runtimes import runtime_of

HOST = Toolchain("host", "c++", None, ("-Os",), (), "strip")
CACHED = Toolchain("host", "c++", "ccache", ("-Os",), (), "strip")
DEVICE = Toolchain("arm", "arm-none-eabi-g++", None, ("-Os", "-mcpu=cortex-m4"), (), "strip")
KERNELS = [Path("kernels/portable/op_add.cpp")]
# The library KERNELS belong to: a kernel compiles against its library's declared dtypes
# (Note [Declared dtypes]).
PORTABLE = Library("portable", Path("kernels/portable/functions.yaml"), Path("kernels/portable"))
READS = Reads(Evidence())


def target(name: str, dtype_selective: bool, toolchain: str = "host") -> Target:
    return Target(name, (), ("portable",), (), {}, (), (), False, dtype_selective, None, toolchain)


def target_objects(
    made: Target,
    toolchain: Toolchain,
    kernels: list[Path],
    libraries: list[Library] | None = None,
    *,
    reads: Reads,
) -> list[CompileStep]:
    """The objects of `made` as the backend plans them, with this checkout's runtime."""
    return plan.target_objects(runtime_of(made, toolchain, reads), kernels, libraries or [])


def objects(name: str, dtype_selective: bool, toolchain: Toolchain = HOST) -> dict[str, Path]:
    made = target(name, dtype_selective, toolchain.name)
    specs = target_objects(made, toolchain, KERNELS, [PORTABLE], reads=READS)
    return {str(spec.source): spec.object for spec in specs}


def test_runtime_is_shared_and_selective_kernels_are_not() -> None:
    a, b = objects("a", dtype_selective=True), objects("b", dtype_selective=False)
    loader = "selective_build/runtime/loader/program.cpp"
    assert a[loader] == b[loader] and a[loader].parts[:2] == ("build", ".obj")
    assert a[str(KERNELS[0])].parts[:2] == ("build", "a")
    assert b[str(KERNELS[0])] == objects("c", dtype_selective=False)[str(KERNELS[0])]
    assert a["build/a/gen/selected_kernels.cpp"] == Path("build/a/obj/selected_kernels.o")


def test_another_toolchain_gets_its_own_objects() -> None:
    host = objects("a", dtype_selective=False)
    device = objects("a", dtype_selective=False, toolchain=DEVICE)
    shared = [source for source in host if not source.startswith("build/")]
    assert shared and all(host[source] != device[source] for source in shared)


def test_launcher_goes_before_the_compiler() -> None:
    spec = target_objects(target("a", False), CACHED, KERNELS, reads=READS)[0]
    command = spec.command()
    assert command[:2] == ["ccache", "c++"]
    assert "-Os" in command and "-MMD" in command


def test_the_depfile_names_the_final_object_not_the_temporary(tmp_path: Path) -> None:
    """The object is compiled to a temporary named after the process id; its depfile must
    name the final object, or two clean builds differ in every depfile."""
    source = tmp_path / "unit.cpp"
    (tmp_path / "unit.h").write_text("inline int one() { return 1; }\n")
    source.write_text('#include "unit.h"\nint two() { return one() + one(); }\n')
    spec = CompileStep(source, tmp_path / "obj" / "unit.o", ("-std=c++17",), ("c++",))
    assert compile_object(spec)
    assert spec.object.exists() and not list(tmp_path.rglob("*.tmp"))
    rule = spec.depfile.read_text().replace("\\\n", " ").split()
    assert rule[:3] == [f"{spec.object}:", str(source), str(tmp_path / "unit.h")]


def test_a_library_s_cflags_and_threads_reach_its_objects_only() -> None:
    """Note [Library cflags]: after the toolchain's; the objects keyed by the whole command."""
    optimized = Library(
        "optimized",
        Path("kernels/optimized/functions.yaml"),
        Path("kernels/optimized"),
        ("-O2", "-I/usr/include/eigen3"),
    )
    fast = Path("kernels/optimized/op_mm.cpp")
    sources = [KERNELS[0], fast]
    for threads, define in ((1, []), (4, ["-DOPT_THREADS=4"])):
        spec_of = {
            spec.source: spec
            for spec in target_objects(
                replace(target("a", False), threads=threads),
                HOST,
                sources,
                [PORTABLE, optimized],
                reads=READS,
            )
        }
        flags = list(spec_of[fast].flags)
        assert flags[flags.index("-Os") :][: 3 + len(define)] == [
            "-Os",
            "-O2",
            "-I/usr/include/eigen3",
            *define,
        ]
        assert "-O2" not in spec_of[KERNELS[0]].flags
        assert not any(flag.startswith("-DOPT_THREADS") for flag in spec_of[KERNELS[0]].flags)
        assert spec_of[fast].object.parent != spec_of[KERNELS[0]].object.parent
        assert spec_of[KERNELS[0]].object == objects("b", dtype_selective=False)[str(KERNELS[0])]
