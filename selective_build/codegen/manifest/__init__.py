"""`selective.toml`, parsed once into frozen dataclasses and validated.

Every problem is reported as one `InputError` naming the manifest file and the key path
(`targets.tiny.models[1]`). Relative paths in the manifest are relative to its directory.
The entry point: the data model (codegen/manifest/model.py), the built-in libraries
(codegen/manifest/builtins.py) and the readers of its tables are importable from here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from selective_build.codegen import isa
from selective_build.codegen.build_key import KEY as BUILD_KEY
from selective_build.codegen.build_key import build_key
from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest.arrays import reference_strings
from selective_build.codegen.manifest.builtins import (
    BUILTIN_KERNELS,
    EIGEN_CANDIDATES,
    OPTIMIZED,
    OPTIMIZED_CFLAGS,
    builtin_cflags,
    builtin_libraries,
    eigen_include,
)
from selective_build.codegen.manifest.cmake_toolchain import KEY as CMAKE_TOOLCHAIN_FILE
from selective_build.codegen.manifest.cmake_toolchain import Probe, run_probe
from selective_build.codegen.manifest.cmake_toolchain import toolchain as cmake_toolchain
from selective_build.codegen.manifest.key_path_reader import MAX_NAME_LENGTH, KeyPathReader
from selective_build.codegen.manifest.model import (
    DEFAULT_OUTPUT_LIMIT,
    DEFAULT_TOOLCHAIN,
    EXECUTORCH,
    OURS,
    RUNTIMES,
    Library,
    Manifest,
    Model,
    Target,
    Toolchain,
    all_operators_name,
    all_operators_target,
    default_toolchain,
)
from selective_build.codegen.manifest.references import check_references, with_builtins
from selective_build.codegen.manifest.target import MAX_THREADS, read_target
from selective_build.codegen.paths import not_a_regular_file

__all__ = [
    "BUILTIN_KERNELS",
    "DEFAULT_OUTPUT_LIMIT",
    "DEFAULT_TOOLCHAIN",
    "EIGEN_CANDIDATES",
    "EXECUTORCH",
    "MAX_MANIFEST_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_THREADS",
    "OPTIMIZED",
    "OPTIMIZED_CFLAGS",
    "OURS",
    "RUNTIMES",
    "Library",
    "Manifest",
    "Model",
    "Target",
    "Toolchain",
    "all_operators_name",
    "builtin_cflags",
    "builtin_libraries",
    "eigen_include",
    "load_manifest",
]

# A manifest is a few kilobytes; a larger file is not one (and is not read whole).
MAX_MANIFEST_BYTES = 16 << 20


def load_manifest(
    path: Path, builtin_kernels: Path = BUILTIN_KERNELS, probe: Probe = run_probe
) -> Manifest:
    """Read and validate the manifest at `path`; `builtin_kernels` holds the libraries a
    target may name without defining them (the same folder, spelled as the caller likes);
    `probe` reads a CMake toolchain file (Note [CMake toolchain files])."""
    problem = not_a_regular_file(path)
    if problem is not None:
        raise InputError(path, f"manifest {problem}")
    try:
        with path.open("rb") as file:
            data = file.read(MAX_MANIFEST_BYTES + 1)
    except OSError as error:
        raise InputError(path, f"cannot read manifest: {error.strerror}") from None
    if len(data) > MAX_MANIFEST_BYTES:
        raise InputError(path, f"manifest is larger than {MAX_MANIFEST_BYTES >> 20} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(path, "manifest is not UTF-8 text") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(path, f"invalid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise InputError(path, "invalid TOML: arrays or tables nested too deeply") from None
    return _Parser(path, builtin_kernels, probe).manifest(document)


def default_isa(toolchain: str) -> str:
    """A toolchain's isa when its table gives none (Note [Instruction sets]): the build
    machine's best for `host`, the built-in toolchains' own level, else none."""
    if toolchain == DEFAULT_TOOLCHAIN:
        return isa.BEST
    return toolchain if toolchain in isa.BUILTIN_TOOLCHAINS else isa.NONE


class _Parser(KeyPathReader):
    """Walks the TOML document, keeping the key path for error messages."""

    def __init__(self, path: Path, builtin_kernels: Path, probe: Probe) -> None:
        super().__init__(path)
        self.builtin_kernels = builtin_kernels
        self.probe = probe

    def manifest(self, document: dict[str, Any]) -> Manifest:
        top = {"toolchains", "libraries", "models", "targets", BUILD_KEY}
        self.table(document, "", top, {"targets"})
        if BUILD_KEY in document:  # the folder itself is taken from tasks/layout.py
            build_key(document[BUILD_KEY], self.path)
        toolchains = self.named_tables(document, "toolchains", self.toolchain)
        for name in (DEFAULT_TOOLCHAIN, *isa.BUILTIN_TOOLCHAINS):  # Note [Instruction sets]
            toolchains.setdefault(name, self.toolchain(name, {}, f"toolchains.{name}"))
        libraries = self.named_tables(document, "libraries", self.library)
        models = self.named_tables(document, "models", self.model)
        targets = self.named_tables(
            document, "targets", lambda name, value, key: read_target(self, name, value, key)
        )
        if not targets:
            raise self.fail("targets", "the manifest defines no target")
        for target in list(targets.values()):
            baseline = target.size_baseline
            if baseline == all_operators_name(target.toolchain, target.libraries):
                targets.setdefault(baseline, all_operators_target(baseline, target))
        libraries = with_builtins(self, libraries, targets.values(), self.builtin_kernels)
        for target in targets.values():
            check_references(self, target, toolchains, libraries, models, targets)
        return Manifest(self.path, toolchains, libraries, models, targets)

    def toolchain(self, name: str, value: object, key: str) -> Toolchain:
        allowed = {"compiler", "launcher", "cflags", "ldflags", "strip", "ar", "emulator", "isa"}
        allowed |= {"executorch"}  # Note [Target runtime]: its ExecuTorch install
        table = self.table(value, key, allowed | {CMAKE_TOOLCHAIN_FILE}, set())
        default = default_toolchain()
        launcher = table.get("launcher")
        requested = self.typed(table.get("isa", default_isa(name)), f"{key}.isa", str)
        unknown = isa.unknown_part(requested)
        if unknown == requested:
            raise self.fail(
                f"{key}.isa",
                f"unknown instruction set {requested!r} (known: {', '.join(isa.CHOICES)},"
                f" or a level followed by +{' +'.join(isa.EXTENSIONS)})",
            )
        if unknown is not None:
            known = ", ".join(
                f"{name} after {low} or above" for name, (_, low) in isa.EXTENSIONS.items()
            )
            raise self.fail(
                f"{key}.isa", f"{requested!r}: no extension {unknown!r} there (known: {known})"
            )
        level = isa.best() if requested == isa.BEST else requested
        given = Toolchain(
            name=name,
            compiler=self.typed(table.get("compiler", default.compiler), f"{key}.compiler", str),
            launcher=None if launcher is None else self.typed(launcher, f"{key}.launcher", str),
            cflags=self.strings(table.get("cflags", list(default.cflags)), f"{key}.cflags"),
            ldflags=self.strings(table.get("ldflags", []), f"{key}.ldflags"),
            strip=self.typed(table.get("strip", default.strip), f"{key}.strip", str),
            ar=self.typed(table.get("ar", default.ar), f"{key}.ar", str),
            emulator=self.strings(table.get("emulator", []), f"{key}.emulator"),
            isa=None if level == isa.NONE else level,
            isa_from_machine=requested == isa.BEST and level != isa.NONE,
            executorch=None
            if "executorch" not in table
            else self.existing_dir(table["executorch"], f"{key}.executorch"),
        )
        if CMAKE_TOOLCHAIN_FILE not in table:
            return given
        # Note [CMake toolchain files]: the table's own keys over what the file sets.
        path = self.existing_file(table[CMAKE_TOOLCHAIN_FILE], f"{key}.{CMAKE_TOOLCHAIN_FILE}")
        own = {field: getattr(given, field) for field in allowed & set(table)}
        return cmake_toolchain(name, path, self.probe(path), own)

    def library(self, name: str, value: object, key: str) -> Library:
        # A built-in library's table may give only its cflags (Note [Library cflags]).
        builtin = builtin_libraries(self.builtin_kernels).get(name)
        paths = {"functions", "sources"}
        table = self.table(value, key, paths | {"cflags"}, set() if builtin else paths)
        if builtin is not None and not paths & set(table):
            functions, sources = builtin.functions, builtin.sources
        else:
            for missing in sorted(paths - set(table)):
                raise self.fail(f"{key}.{missing}", "missing required key")
            functions = self.existing_file(table["functions"], f"{key}.functions")
            sources = self.existing_dir(table["sources"], f"{key}.sources")
        default = builtin.cflags if builtin is not None else []
        return Library(
            name=name,
            functions=functions,
            sources=sources,
            cflags=self.strings(table.get("cflags", list(default)), f"{key}.cflags"),
        )

    def model(self, name: str, value: object, key: str) -> Model:
        allowed = {"path", "method", "inputs", "outputs", "output_limit"}
        table = self.table(value, key, allowed, {"path"})
        # Both arrays are typed before any file is looked at.
        inputs = reference_strings(self, table.get("inputs", []), f"{key}.inputs")
        outputs = reference_strings(self, table.get("outputs", []), f"{key}.outputs")
        return Model(
            name=name,
            path=self.existing_file(table["path"], f"{key}.path"),
            method=self.typed(table.get("method", "forward"), f"{key}.method", str),
            inputs=tuple(self.existing_file(p, f"{key}.inputs[{i}]") for i, p in enumerate(inputs)),
            outputs=tuple(
                self.existing_file(p, f"{key}.outputs[{i}]") for i, p in enumerate(outputs)
            ),
            output_limit=self.output_limit(table.get("output_limit"), f"{key}.output_limit"),
        )

    def output_limit(self, value: object, key: str) -> int:
        """The bytes verification lets a model's outputs take (DEFAULT_OUTPUT_LIMIT)."""
        if value is None:
            return DEFAULT_OUTPUT_LIMIT
        limit = self.size(value, key)
        if limit == 0:
            raise self.fail(key, "a limit of 0 bytes lets no output through")
        return limit
