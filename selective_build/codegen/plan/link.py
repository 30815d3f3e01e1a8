"""A target's link step: its runner (unstripped, then stripped) and its static library; a
library-only target (`runner = false`) links no runner but the minimal app its size is
measured with, once without and once with that library (Note [Library-only size],
tasks/size.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from selective_build.codegen.manifest import Target, Toolchain
from selective_build.codegen.plan.runtime import TargetRuntime
from selective_build.codegen.plan.steps import Archive, CompileStep, Link, LinkStep, Tools

# GNU ld leaves 5 empty slots in .dynamic for tools that edit a linked file (prelink): 80 B
# of RELRO, which grows a small runner's file in whole pages (Note [No PLT] in
# runtime/core/no_plt.h). Nothing of ours edits one.
BASE_LDFLAGS = ("-Wl,--gc-sections", "-Wl,--as-needed", "-Wl,--spare-dynamic-tags=0")


def linking_toolchain(target: Target, toolchain: Toolchain) -> Toolchain:
    """The toolchain a target links with. Note [Threads]: a pool of std::threads; C
    libraries before glibc 2.34 link them apart."""
    if target.threads > 1:
        return replace(toolchain, ldflags=(*toolchain.ldflags, "-pthread"))
    return toolchain


def tools(toolchain: Toolchain, libraries: tuple[str, ...] = ()) -> Tools:
    return Tools(
        driver=toolchain.compile_command(),
        cflags=toolchain.cflags,
        ldflags=(*BASE_LDFLAGS, *toolchain.ldflags),
        strip=toolchain.strip,
        ar=toolchain.ar,
        libraries=libraries,
    )


def link_step(runtime: TargetRuntime, objects: Sequence[CompileStep]) -> LinkStep:
    """Link `objects` (target_objects; for a library-only target, the runtime's
    library_objects) with the target's toolchain (linking_toolchain), against what the
    runtime links besides them (Note [Target runtime])."""
    paths, target = runtime.context.paths, runtime.context.target
    name = target.name
    toolchain = linking_toolchain(target, runtime.context.toolchain)
    linking = tools(toolchain, runtime.link_libraries())
    archive = Archive(
        tuple(step.object for step in runtime.library_objects(objects)),
        paths.runtime_library(name),
    )
    if target.runner:
        linked = tuple(step.object for step in objects)
        runner = Link(linked, paths.unstripped_runner(name), paths.runner(name))
        return LinkStep(name, linking, (runner, archive), linked)
    without, with_calls = runtime.size_app_objects()
    apps = tuple(
        Link(
            linked,
            paths.unstripped_size_app(name, with_library),
            paths.size_app(name, with_library),
        )
        for linked, with_library in (
            ((without.object,), False),
            ((with_calls.object, archive.output), True),
        )
    )
    inputs = (*archive.objects, without.object, with_calls.object)
    return LinkStep(name, linking, (archive, *apps), inputs)
