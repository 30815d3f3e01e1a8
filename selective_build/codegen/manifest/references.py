"""Checks across the manifest's tables: every name a target uses is defined once read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

# Through the module: the message names the folders eigen_include searched, as they are now.
import selective_build.codegen.manifest.builtins as shipped
from selective_build.codegen.hints import did_you_mean
from selective_build.codegen.manifest.key_path_reader import KeyPathReader
from selective_build.codegen.manifest.model import Library, Model, Target, Toolchain


def with_builtins(
    reader: KeyPathReader,
    libraries: dict[str, Library],
    targets: Iterable[Target],
    builtin_kernels: Path,
) -> dict[str, Library]:
    """The manifest's libraries plus the built-in ones its targets name."""
    named = {name for target in targets for name in target.libraries} - set(libraries)
    if not named:
        return libraries
    builtins = shipped.builtin_libraries(builtin_kernels)
    optimized = shipped.OPTIMIZED
    if optimized in named and optimized in builtins and shipped.eigen_include() is None:
        user = next(t for t in targets if optimized in t.libraries)
        index = user.libraries.index(optimized)
        raise reader.fail(
            f"targets.{user.name}.libraries[{index}]",
            "the optimized library needs Eigen 3.4's headers, found in none of "
            f"{', '.join(str(p) for p in shipped.EIGEN_CANDIDATES)}: install them (Debian's"
            " libeigen3-dev) or give their folder in [libraries.optimized] cflags = "
            '["-O2", "-isystem", "/path/to/eigen3"]',
        )
    return {**{n: builtins[n] for n in sorted(named) if n in builtins}, **libraries}


def check_references(
    reader: KeyPathReader,
    target: Target,
    toolchains: Mapping[str, Toolchain],
    libraries: Mapping[str, Library],
    models: Mapping[str, Model],
    targets: Mapping[str, Target],
) -> None:
    """`target`'s models, libraries, toolchain and size baseline are defined and fit."""
    key = f"targets.{target.name}"
    for key_name, noun, names, known in (
        ("models", "model", target.models, models),
        ("libraries", "library", target.libraries, libraries),
    ):
        seen: set[str] = set()
        for index, name in enumerate(names):
            if name not in known:
                raise reader.fail(f"{key}.{key_name}[{index}]", unknown_name(noun, name, known))
            if name in seen:
                raise reader.fail(f"{key}.{key_name}[{index}]", f"{name!r} is listed twice")
            seen.add(name)
    if not target.libraries:
        raise reader.fail(f"{key}.libraries", "a target needs at least one kernel library")
    _check_baseline(reader, target, targets)
    if target.toolchain not in toolchains:
        problem = unknown_name("toolchain", target.toolchain, toolchains)
        raise reader.fail(f"{key}.toolchain", problem)


def unknown_name(noun: str, name: str, known: Iterable[str]) -> str:
    """What a target names that the manifest does not define, what it does define (and,
    for a library, what is built in), and the closest of those to `name`."""
    defined = sorted(known)
    listed = f"defined: {', '.join(defined) or 'none'}"
    if noun == "library":  # a built-in library needs no table
        builtin = sorted(shipped.builtin_libraries(shipped.BUILTIN_KERNELS))
        defined += builtin
        listed += f"; built in: {', '.join(builtin)}"
    return f"unknown {noun} {name!r} ({listed}){did_you_mean(name, defined)}"


def _check_baseline(reader: KeyPathReader, target: Target, targets: Mapping[str, Target]) -> None:
    key = f"targets.{target.name}.size_baseline"
    baseline = target.size_baseline
    if baseline is None:
        return
    if baseline == target.name or baseline not in targets:
        raise reader.fail(
            key, f"{baseline!r} is not another target (defined: {', '.join(sorted(targets))})"
        )
    # A runner's size and a library's added bytes are different measures.
    if not target.runner:
        raise reader.fail(key, "a library-only target (runner = false) has no runner")
    if not targets[baseline].runner:
        raise reader.fail(
            key, f"{baseline!r} is library-only (runner = false): it has no runner to compare"
        )
