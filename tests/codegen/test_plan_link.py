"""The link, package, verify and size steps of the plan (codegen/plan/), with no build."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from selective_build.codegen.manifest import Model, Target, Toolchain
from selective_build.codegen.plan.link import link_step, linking_toolchain
from selective_build.codegen.plan.objects import target_objects
from selective_build.codegen.plan.ours import OurRuntime
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.size import size_step
from selective_build.codegen.plan.steps import Archive, CompileStep, Link
from selective_build.codegen.plan.verify import verify_step
from selective_build.codegen.size.inputs import LinkedSource
from tests.codegen.plan_support import ours

PATHS = BuildPaths(Path("build"), Path("src"), Path("/work"))
HOST = Toolchain("host", "c++", None, ("-Os",), ("-static",), "strip", "ar")
RUNTIME = [Path("src/runtime/loader/program.cpp"), Path("src/runtime/runner/main.cpp")]
ADD = Path("kernels/portable/op_add.cpp")
MODEL = Model("m", Path("m.pte"), "forward", (Path("in0.npy"),), (Path("out0.npy"),))


def target(**changes: object) -> Target:
    made = Target("t", ("m",), ("portable",), (), {}, (), (), False, True, None, "host")
    return replace(made, **changes)  # type: ignore[arg-type]


def runtime(made: Target, runtime_files: list[Path] = RUNTIME) -> OurRuntime:
    return ours(PATHS, made, HOST, runtime_files)


def objects(made: Target, runtime_files: list[Path] = RUNTIME) -> list[CompileStep]:
    return target_objects(runtime(made, runtime_files), [ADD])


def test_a_runner_is_linked_then_archived_without_its_command_line() -> None:
    linked = objects(target())
    step = link_step(runtime(target()), linked)
    runner, archive = step.actions
    assert isinstance(runner, Link) and isinstance(archive, Archive)
    assert runner.objects == step.inputs == tuple(o.object for o in linked)
    main = [o.object for o in linked if o.source.name == "main.cpp"]
    assert main and main[0] in runner.objects and main[0] not in archive.objects
    assert step.outputs == [
        Path("build/t/runner.unstripped"),
        Path("build/t/runner"),
        Path("build/t/libruntime.a"),
    ]
    link = ["c++", "-Os", "-Wl,--gc-sections", "-Wl,--as-needed", "-Wl,--spare-dynamic-tags=0"]
    link += ["-static", "-o"]
    assert step.signature().startswith(" ".join([*link, "build/t/runner.unstripped"]))
    assert " strip ar rcsD build/t/libruntime.a " in step.signature()


def test_a_library_only_target_archives_first_and_links_its_size_app_twice() -> None:
    library_only = target(runner=False)
    step = link_step(runtime(library_only), objects(library_only, RUNTIME[:1]))
    archive, without, with_library = step.actions
    assert isinstance(archive, Archive) and isinstance(without, Link)
    assert isinstance(with_library, Link)
    app_without, app_with = runtime(library_only).size_app_objects()
    assert without.objects == (app_without.object,)
    assert with_library.objects == (app_with.object, archive.output)
    assert step.inputs == (*archive.objects, app_without.object, app_with.object)
    assert step.outputs[0] == archive.output == Path("build/t/libruntime.a")
    assert step.signature().startswith("ar rcsD build/t/libruntime.a ")


def test_the_size_app_objects_are_shared_and_differ_by_the_define() -> None:
    without, with_calls = runtime(target(runner=False)).size_app_objects()
    assert without.source == with_calls.source == PATHS.size_app_source
    assert without.object.parts[:2] == ("build", ".obj") and without.object != with_calls.object
    assert "-DSELECTIVE_WITH_LIBRARY" in with_calls.flags
    assert "-DSELECTIVE_WITH_LIBRARY" not in without.flags


def test_a_threaded_target_links_the_thread_library() -> None:
    assert linking_toolchain(target(), HOST) == HOST
    assert linking_toolchain(target(threads=2), HOST).ldflags == ("-static", "-pthread")


def test_the_package_copies_the_runtime_headers_but_the_runner_s() -> None:
    headers = [Path("src/runtime/core/tensor.h"), Path("src/runtime/runner/npy.h")]
    step = ours(PATHS, target(), HOST, headers).package("1.2.3")
    copies = dict(step.copies)
    assert copies[Path("include/runtime/core/tensor.h")] == headers[0]
    assert headers[1] not in step.inputs
    assert copies[Path("include/selective/selected_op_variants.h")] == Path(
        "build/t/gen/selected_op_variants.h"
    )
    assert copies[Path("lib/libselective_t.a")] == Path("build/t/libruntime.a")
    assert Path("build/t/package/lib/pkgconfig/selective_t.pc") in step.outputs
    assert all(path.is_relative_to("build/t/package") for path in step.outputs)


def test_verify_reads_the_runner_and_every_reference() -> None:
    step = verify_step(runtime(target()), [MODEL])
    assert step.inputs == [
        Path("build/t/runner"),
        Path("m.pte"),
        Path("in0.npy"),
        Path("out0.npy"),
    ]
    assert step.output == Path("build/t/verify.json")


def test_a_library_only_target_verifies_nothing() -> None:
    step = verify_step(runtime(target(runner=False)), [MODEL])
    assert step.runner is None and step.inputs == []


def test_size_measures_the_runner_and_compares_with_the_baseline_s() -> None:
    linked = objects(target())
    step = size_step(runtime(target(size_baseline="all")), linked)
    assert step.measured == (Path("build/t/runner"), Path("build/t/runner.unstripped"))
    assert step.baseline_runner == Path("build/all/runner")
    assert [(o.source, o.object) for o in step.objects] == [(o.source, o.object) for o in linked]
    assert size_step(runtime(target()), linked).baseline_runner is None
    assert step.prebuilt == ()


def test_size_buckets_our_runtime_s_parts_and_leaves_kernels_to_the_resolution() -> None:
    step = size_step(runtime(target()), objects(target()))
    assert [(o.source.name, o.bucket) for o in step.objects] == [
        ("program.cpp", "loader"),
        ("main.cpp", "runner"),
        ("values.cpp", "loader"),  # the Bool constants check of a dtype-selective target
        ("op_add.cpp", None),
        ("selected_kernels.cpp", "registration"),
    ]
    assert isinstance(step.objects[0], LinkedSource)


def test_size_of_a_library_only_target_measures_the_app_with_and_without_it() -> None:
    step = size_step(runtime(target(runner=False)), [])
    assert step.measured == (
        Path("build/t/size_app/with_library"),
        Path("build/t/size_app/with_library.unstripped"),
        Path("build/t/size_app/without_library"),
        Path("build/t/size_app/without_library.unstripped"),
    )
    assert step.library == Path("build/t/libruntime.a")
