"""A target's link step: its runner (unstripped, then stripped) and its static library; a
library-only target (`runner = false`) links no runner but the minimal app its size is
measured with, once without and once with that library (Note [Library-only size],
tasks/size.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from codegen.manifest import Target, Toolchain
from codegen.plan.objects import common_flags, library_objects
from codegen.plan.paths import BuildPaths
from codegen.plan.steps import Archive, CompileStep, Link, LinkStep, Tools

# GNU ld leaves 5 empty slots in .dynamic for tools that edit a linked file (prelink): 80 B
# of RELRO, which grows a small runner's file in whole pages (Note [No PLT] in
# runtime/core/no_plt.h). Nothing of ours edits one.
BASE_LDFLAGS = ("-Wl,--gc-sections", "-Wl,--as-needed", "-Wl,--spare-dynamic-tags=0")
# Compiles the minimal app's calls into the runtime (runtime/size_app/minimal_app.cpp).
WITH_LIBRARY_DEFINE = "-DSELECTIVE_WITH_LIBRARY"


def linking_toolchain(target: Target, toolchain: Toolchain) -> Toolchain:
    """The toolchain a target links with. Note [Threads]: a pool of std::threads; C
    libraries before glibc 2.34 link them apart."""
    if target.threads > 1:
        return replace(toolchain, ldflags=(*toolchain.ldflags, "-pthread"))
    return toolchain


def tools(toolchain: Toolchain) -> Tools:
    return Tools(
        driver=toolchain.compile_command(),
        cflags=toolchain.cflags,
        ldflags=(*BASE_LDFLAGS, *toolchain.ldflags),
        strip=toolchain.strip,
        ar=toolchain.ar,
    )


def size_app_objects(paths: BuildPaths, toolchain: Toolchain) -> tuple[CompileStep, CompileStep]:
    """The minimal app's objects, (without, with) the library's calls. They read no
    generated header, so every library-only target of a toolchain shares them."""
    source = paths.size_app_source
    driver = toolchain.compile_command()
    common = common_flags(paths, toolchain)
    steps = []
    for flags in (common, (*common, WITH_LIBRARY_DEFINE)):
        folder = paths.shared_object_dir(toolchain.name, driver + flags)
        steps.append(CompileStep(source, paths.object_path(folder, source), flags, driver))
    return steps[0], steps[1]


def link_step(
    paths: BuildPaths, target: Target, toolchain: Toolchain, objects: Sequence[CompileStep]
) -> LinkStep:
    """Link `objects` (target_objects; for a library-only target, its library_objects)
    with `toolchain` (linking_toolchain)."""
    name = target.name
    archive = Archive(
        tuple(step.object for step in library_objects(paths, objects)),
        paths.runtime_library(name),
    )
    if target.runner:
        linked = tuple(step.object for step in objects)
        runner = Link(linked, paths.unstripped_runner(name), paths.runner(name))
        return LinkStep(name, tools(toolchain), (runner, archive), linked)
    without, with_calls = size_app_objects(paths, toolchain)
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
    return LinkStep(name, tools(toolchain), (archive, *apps), inputs)
