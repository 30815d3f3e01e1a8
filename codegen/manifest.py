"""`selective.toml`, parsed once into frozen dataclasses and validated.

Every problem is reported as one `InputError` naming the manifest file and the key path
(`targets.tiny.models[1]`). Relative paths in the manifest are relative to its directory.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from codegen.build_folder import KEY as BUILD_KEY
from codegen.build_folder import build_key
from codegen.errors import InputError
from codegen.model import OperatorName
from codegen.paths import not_a_regular_file
from codegen.size.buckets import FIXED_BUCKETS, KERNEL_PREFIX, TOTALS, is_known_bucket
from codegen.units import parse_size

# Names become file names under build/: a short, portable character set.
MAX_NAME_LENGTH = 64
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*", re.ASCII)
# A manifest is a few kilobytes; a larger file is not one (and is not read whole).
MAX_MANIFEST_BYTES = 16 << 20
DEFAULT_TOOLCHAIN = "host"
# The kernel libraries we ship, one folder each with its functions.yaml: a target names them
# without a [libraries.*] table (a table of the same name overrides one).
BUILTIN_KERNELS = Path(__file__).resolve().parent.parent / "kernels"
# Note [Library cflags]
# A library's objects compile with the toolchain's cflags and then its own, so a later
# -O2 beats the toolchain's -Os for that library alone; its objects are keyed by the whole
# command (tasks/layout.py shared_object_dir), so sharing between targets stays exact.
# The built-in optimized library defaults to -O2 (benchmarks/RESULTS.md, "sgemm": -O3 is no
# faster) and Eigen's include path; `[libraries.optimized] cflags = [...]` replaces both.
# Eigen is header-only: a cross toolchain compiles the same headers, and since a cross
# compiler does not search the host's /usr/include, the path is always given explicitly.
OPTIMIZED = "optimized"
OPTIMIZED_CFLAGS = ("-O2",)
EIGEN_CANDIDATES = (
    Path("/usr/include/eigen3"),  # Debian/Ubuntu libeigen3-dev, Fedora eigen3-devel
    Path("/usr/local/include/eigen3"),  # built from source, Homebrew on Intel macOS
    Path("/opt/homebrew/include/eigen3"),  # Homebrew on Apple silicon
)
MAX_THREADS = 256

T = TypeVar("T")


@dataclass(frozen=True)
class Toolchain:
    """How to compile and link for one kind of device."""

    name: str
    compiler: str
    launcher: str | None
    cflags: tuple[str, ...]
    ldflags: tuple[str, ...]
    strip: str
    ar: str = "ar"  # makes the runtime static library users link into their own app
    # A command prefix that runs this toolchain's programs here (CMake's
    # CMAKE_CROSSCOMPILING_EMULATOR), e.g. ("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu").
    emulator: tuple[str, ...] = ()

    def compile_command(self) -> tuple[str, ...]:
        """The compiler, behind its launcher (ccache, sccache, ...) when there is one."""
        return ((self.launcher,) if self.launcher else ()) + (self.compiler,)


@dataclass(frozen=True)
class Library:
    """A kernel library: its ExecuTorch-style functions.yaml and its sources folder."""

    name: str
    functions: Path
    sources: Path
    # Note [Library cflags]: after the toolchain's, for this library's objects only.
    cflags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Model:
    """A `.pte` program with optional reference inputs and outputs (`.npy`)."""

    name: str
    path: Path
    method: str
    inputs: tuple[Path, ...]
    outputs: tuple[Path, ...]


@dataclass(frozen=True)
class Target:
    """One runner to build: which models it runs and how it is trimmed."""

    name: str
    models: tuple[str, ...]
    libraries: tuple[str, ...]
    extra_ops: tuple[OperatorName, ...]
    # The --ops_dict form: operator -> dtype names or kernel keys (empty: every dtype).
    op_dtypes: Mapping[str, tuple[str, ...]]
    op_schemas: tuple[Path, ...]  # functions.yaml / custom_ops.yaml: all their operators
    selections: tuple[Path, ...]  # selected_operators.yaml files handed to us
    include_all_operators: bool
    dtype_selective: bool
    size_budget: int | None
    toolchain: str
    # Limits on other measures (text, data, bss) and on attribution buckets, in bytes.
    size_budgets: Mapping[str, int] = field(default_factory=dict)
    # The target whose runner the size report compares with: another one of the manifest,
    # or (`size_baseline = true`) the all-operators target made for it (all_operators_name).
    size_baseline: str | None = None
    # False: a library-only target. No runner is linked and nothing is verified; its size
    # is what the library adds to a minimal app (Note [Library-only size], tasks/size.py).
    runner: bool = True
    # Note [Threads] (kernels/optimized/parallel.h): kernels split their outer loops over
    # this many threads, the calling one included.
    threads: int = 1


@dataclass(frozen=True)
class Manifest:
    path: Path
    toolchains: Mapping[str, Toolchain]
    libraries: Mapping[str, Library]
    models: Mapping[str, Model]
    targets: Mapping[str, Target]

    @property
    def root(self) -> Path:
        return self.path.parent


def builtin_libraries(kernels: Path) -> dict[str, Library]:
    """The built-in libraries: every folder of `kernels` holding a functions.yaml."""
    return {
        folder.name: Library(
            folder.name, folder / "functions.yaml", folder, builtin_cflags(folder.name)
        )
        for folder in sorted(kernels.iterdir())
        if (folder / "functions.yaml").is_file()
    }


def builtin_cflags(name: str) -> tuple[str, ...]:
    """A built-in library's own cflags (Note [Library cflags])."""
    if name != OPTIMIZED:
        return ()
    eigen = eigen_include()
    # -isystem: Eigen's own warnings (an unused variable under -mavx2) are not ours.
    return (*OPTIMIZED_CFLAGS, *(("-isystem", str(eigen)) if eigen else ()))


def eigen_include() -> Path | None:
    """The first folder of EIGEN_CANDIDATES holding Eigen's headers."""
    return next((path for path in EIGEN_CANDIDATES if (path / "Eigen" / "Core").is_file()), None)


def load_manifest(path: Path, builtin_kernels: Path = BUILTIN_KERNELS) -> Manifest:
    """Read and validate the manifest at `path`; `builtin_kernels` holds the libraries a
    target may name without defining them (the same folder, spelled as the caller likes)."""
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
    return _Parser(path, builtin_kernels).manifest(document)


class _Parser:
    """Walks the TOML document, keeping the key path for error messages."""

    def __init__(self, path: Path, builtin_kernels: Path = BUILTIN_KERNELS) -> None:
        self.path = path
        self.root = path.parent
        self.builtin_kernels = builtin_kernels

    def fail(self, key: str, problem: str) -> InputError:
        return InputError(self.path, f"{key}: {problem}" if key else problem)

    def table(
        self, value: object, key: str, allowed: set[str], required: set[str]
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {_kind(value)}")
        for name in value:
            if name not in allowed:
                raise self.fail(
                    _join(key, name), f"unknown key (allowed: {', '.join(sorted(allowed))})"
                )
        for name in sorted(required):
            if name not in value:
                raise self.fail(_join(key, name), "missing required key")
        return value

    def typed(self, value: object, key: str, kind: type[T]) -> T:
        # bool is an int in Python; a manifest's `true` is never a count.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(key, f"expected {kind.__name__}, got {_kind(value)}")
        return value

    def strings(self, value: object, key: str) -> tuple[str, ...]:
        items = self.typed(value, key, list)
        return tuple(self.typed(item, f"{key}[{i}]", str) for i, item in enumerate(items))

    def name(self, value: str, key: str) -> str:
        if len(value) > MAX_NAME_LENGTH:
            raise self.fail(
                key, f"name of {len(value)} characters is longer than {MAX_NAME_LENGTH}"
            )
        if not _NAME.fullmatch(value):
            raise self.fail(key, f"name {value!r} may use only letters, digits, '_' and '-'")
        return value

    def existing_file(self, value: object, key: str) -> Path:
        path = self.root / self.typed(value, key, str)
        problem = not_a_regular_file(path)
        if problem is not None:
            raise self.fail(key, f"file {path} {problem}")
        return path

    def existing_dir(self, value: object, key: str) -> Path:
        path = self.root / self.typed(value, key, str)
        if not os.path.isdir(path):
            problem = not_a_regular_file(path) or "is a file"
            raise self.fail(key, f"directory {path} {problem}")
        return path

    def named_tables(
        self, document: dict[str, Any], key: str, parse: Callable[[str, object, str], T]
    ) -> dict[str, T]:
        tables = self.typed(document.get(key, {}), key, dict)
        return {
            self.name(name, _join(key, name)): parse(name, value, _join(key, name))
            for name, value in tables.items()
        }

    def manifest(self, document: dict[str, Any]) -> Manifest:
        top = {"toolchains", "libraries", "models", "targets", BUILD_KEY}
        self.table(document, "", top, {"targets"})
        if BUILD_KEY in document:  # the folder itself is taken from tasks/layout.py
            build_key(document[BUILD_KEY], self.path)
        toolchains = self.named_tables(document, "toolchains", self.toolchain)
        toolchains.setdefault(DEFAULT_TOOLCHAIN, _default_toolchain())
        libraries = self.named_tables(document, "libraries", self.library)
        models = self.named_tables(document, "models", self.model)
        targets = self.named_tables(document, "targets", self.target)
        if not targets:
            raise self.fail("targets", "the manifest defines no target")
        for target in list(targets.values()):
            baseline = target.size_baseline
            if baseline == all_operators_name(target.toolchain, target.libraries):
                targets.setdefault(baseline, _all_operators_target(baseline, target))
        libraries = self.with_builtins(libraries, targets.values())
        for target in targets.values():
            self.check_references(target, toolchains, libraries, models, targets)
        return Manifest(self.path, toolchains, libraries, models, targets)

    def with_builtins(
        self, libraries: dict[str, Library], targets: Iterable[Target]
    ) -> dict[str, Library]:
        """The manifest's libraries plus the built-in ones its targets name."""
        named = {name for target in targets for name in target.libraries} - set(libraries)
        if not named:
            return libraries
        builtins = builtin_libraries(self.builtin_kernels)
        if OPTIMIZED in named and OPTIMIZED in builtins and eigen_include() is None:
            user = next(t for t in targets if OPTIMIZED in t.libraries)
            index = user.libraries.index(OPTIMIZED)
            raise self.fail(
                f"targets.{user.name}.libraries[{index}]",
                "the optimized library needs Eigen 3.4's headers, found in none of "
                f"{', '.join(str(p) for p in EIGEN_CANDIDATES)}: install them (README, "
                "Setup) or give their folder in [libraries.optimized] cflags = "
                '["-O2", "-isystem", "/path/to/eigen3"]',
            )
        return {**{n: builtins[n] for n in sorted(named) if n in builtins}, **libraries}

    def toolchain(self, name: str, value: object, key: str) -> Toolchain:
        allowed = {"compiler", "launcher", "cflags", "ldflags", "strip", "ar", "emulator"}
        table = self.table(value, key, allowed, set())
        default = _default_toolchain()
        launcher = table.get("launcher")
        return Toolchain(
            name=name,
            compiler=self.typed(table.get("compiler", default.compiler), f"{key}.compiler", str),
            launcher=None if launcher is None else self.typed(launcher, f"{key}.launcher", str),
            cflags=self.strings(table.get("cflags", list(default.cflags)), f"{key}.cflags"),
            ldflags=self.strings(table.get("ldflags", []), f"{key}.ldflags"),
            strip=self.typed(table.get("strip", default.strip), f"{key}.strip", str),
            ar=self.typed(table.get("ar", default.ar), f"{key}.ar", str),
            emulator=self.strings(table.get("emulator", []), f"{key}.emulator"),
        )

    def library(self, name: str, value: object, key: str) -> Library:
        # A built-in library's table may give only its cflags (Note [Library cflags]).
        builtin = builtin_libraries(self.builtin_kernels).get(name)
        paths = {"functions", "sources"}
        table = self.table(value, key, paths | {"cflags"}, set() if builtin else paths)
        if builtin is not None and not paths & set(table):
            functions, sources = builtin.functions, builtin.sources
        else:
            for missing in sorted(paths - set(table)):
                raise self.fail(_join(key, missing), "missing required key")
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
        table = self.table(value, key, {"path", "method", "inputs", "outputs"}, {"path"})
        inputs = self.strings(table.get("inputs", []), f"{key}.inputs")
        outputs = self.strings(table.get("outputs", []), f"{key}.outputs")
        return Model(
            name=name,
            path=self.existing_file(table["path"], f"{key}.path"),
            method=self.typed(table.get("method", "forward"), f"{key}.method", str),
            inputs=tuple(self.existing_file(p, f"{key}.inputs[{i}]") for i, p in enumerate(inputs)),
            outputs=tuple(
                self.existing_file(p, f"{key}.outputs[{i}]") for i, p in enumerate(outputs)
            ),
        )

    def target(self, name: str, value: object, key: str) -> Target:
        allowed = {
            "models",
            "libraries",
            "extra_ops",
            "op_dtypes",
            "op_schemas",
            "selections",
            "include_all_operators",
            "dtype_selective",
            "size_budget",
            "size_budgets",
            "size_baseline",
            "toolchain",
            "runner",
            "threads",
        }
        table = self.table(value, key, allowed, {"libraries"})
        extra_ops = self.strings(table.get("extra_ops", []), f"{key}.extra_ops")
        budget = table.get("size_budget")
        libraries = self.strings(table["libraries"], f"{key}.libraries")
        toolchain = self.typed(table.get("toolchain", DEFAULT_TOOLCHAIN), f"{key}.toolchain", str)
        return Target(
            name=name,
            models=self.strings(table.get("models", []), f"{key}.models"),
            libraries=libraries,
            extra_ops=tuple(
                self.operator(op, f"{key}.extra_ops[{i}]") for i, op in enumerate(extra_ops)
            ),
            op_dtypes=self.op_dtypes(table.get("op_dtypes", {}), f"{key}.op_dtypes"),
            op_schemas=tuple(
                self.existing_file(path, f"{key}.op_schemas[{i}]")
                for i, path in enumerate(
                    self.strings(table.get("op_schemas", []), f"{key}.op_schemas")
                )
            ),
            selections=tuple(
                self.existing_file(path, f"{key}.selections[{i}]")
                for i, path in enumerate(
                    self.strings(table.get("selections", []), f"{key}.selections")
                )
            ),
            include_all_operators=self.typed(
                table.get("include_all_operators", False), f"{key}.include_all_operators", bool
            ),
            dtype_selective=self.typed(
                table.get("dtype_selective", False), f"{key}.dtype_selective", bool
            ),
            size_budget=None if budget is None else self.size(budget, f"{key}.size_budget"),
            toolchain=toolchain,
            size_budgets=self.size_budgets(table.get("size_budgets", {}), f"{key}.size_budgets"),
            size_baseline=self.size_baseline(
                table.get("size_baseline"), all_operators_name(toolchain, libraries), key
            ),
            runner=self.typed(table.get("runner", True), f"{key}.runner", bool),
            threads=self.threads(table.get("threads", 1), f"{key}.threads"),
        )

    def threads(self, value: object, key: str) -> int:
        count = self.typed(value, key, int)
        if not 1 <= count <= MAX_THREADS:
            raise self.fail(key, f"expected a thread count from 1 to {MAX_THREADS}, got {count}")
        return count

    def size_baseline(self, value: object, all_operators: str, key: str) -> str | None:
        """A target's name, or true: `all_operators`, the all-operators build of the target's
        libraries and toolchain."""
        if value is None or value is False:
            return None
        if value is True:
            return all_operators
        if not isinstance(value, str):
            raise self.fail(
                f"{key}.size_baseline", f"expected true or a target's name, got {_kind(value)}"
            )
        return value

    def size_budgets(self, value: object, key: str) -> dict[str, int]:
        table = self.typed(value, key, dict)
        budgets: dict[str, int] = {}
        # The file has its own key, size_budget: one limit per measure.
        measures = [m for m in TOTALS if m != "file"] + ["kernels"]
        for name, limit in table.items():
            if name == "file":
                raise self.fail(f"{key}.'file'", "the runner file's limit is size_budget")
            if name not in measures and not is_known_bucket(name):
                known = ", ".join(
                    [*measures, *FIXED_BUCKETS, f"{KERNEL_PREFIX}<library>/op_<name>"]
                )
                raise self.fail(f"{key}.{name!r}", f"unknown measure or bucket ({known})")
            budgets[name] = self.size(limit, f"{key}.{name!r}")
        return budgets

    def op_dtypes(self, value: object, key: str) -> dict[str, tuple[str, ...]]:
        table = self.typed(value, key, dict)
        entries = {op: self.strings(items, f"{key}.{op!r}") for op, items in table.items()}
        from codegen.selection import Selection  # only manifests with op_dtypes pay for it

        for op, items in entries.items():
            try:
                Selection.from_op_dtypes({op: items}, key)
            except ValueError as error:
                raise self.fail(f"{key}.{op!r}", str(error)) from None
        return entries

    def operator(self, text: str, key: str) -> OperatorName:
        try:
            return OperatorName.parse(text)
        except ValueError as error:
            raise self.fail(key, str(error)) from None

    def size(self, value: object, key: str) -> int:
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            raise self.fail(key, f'expected a size such as "24 KiB", got {_kind(value)}')
        try:
            return parse_size(value)
        except ValueError as error:
            raise self.fail(key, str(error)) from None

    def check_references(
        self,
        target: Target,
        toolchains: Mapping[str, Toolchain],
        libraries: Mapping[str, Library],
        models: Mapping[str, Model],
        targets: Mapping[str, Target],
    ) -> None:
        key = f"targets.{target.name}"
        for key_name, noun, names, known in (
            ("models", "model", target.models, models),
            ("libraries", "library", target.libraries, libraries),
        ):
            seen: set[str] = set()
            for index, name in enumerate(names):
                if name not in known:
                    raise self.fail(
                        f"{key}.{key_name}[{index}]",
                        f"unknown {noun} {name!r} (defined: {', '.join(sorted(known)) or 'none'})",
                    )
                if name in seen:
                    raise self.fail(f"{key}.{key_name}[{index}]", f"{name!r} is listed twice")
                seen.add(name)
        if not target.libraries:
            raise self.fail(f"{key}.libraries", "a target needs at least one kernel library")
        baseline = target.size_baseline
        if baseline is not None and (baseline == target.name or baseline not in targets):
            raise self.fail(
                f"{key}.size_baseline",
                f"{baseline!r} is not another target (defined: {', '.join(sorted(targets))})",
            )
        # A runner's size and a library's added bytes are different measures.
        if baseline is not None and not target.runner:
            raise self.fail(
                f"{key}.size_baseline", "a library-only target (runner = false) has no runner"
            )
        if baseline is not None and not targets[baseline].runner:
            raise self.fail(
                f"{key}.size_baseline",
                f"{baseline!r} is library-only (runner = false): it has no runner to compare",
            )
        if target.toolchain not in toolchains:
            raise self.fail(
                f"{key}.toolchain",
                f"unknown toolchain {target.toolchain!r} "
                f"(defined: {', '.join(sorted(toolchains))})",
            )


def all_operators_name(toolchain: str, libraries: Sequence[str]) -> str:
    """The target `size_baseline = true` adds: every operator of these libraries, every
    dtype, built with this toolchain. Its dots keep it apart from names a manifest can use,
    and targets with the same libraries and toolchain share it."""
    return "all-operators." + ".".join((toolchain, *libraries))


def _all_operators_target(name: str, target: Target) -> Target:
    return Target(
        name=name,
        models=(),
        libraries=target.libraries,
        extra_ops=(),
        op_dtypes={},
        op_schemas=(),
        selections=(),
        include_all_operators=True,
        dtype_selective=False,
        size_budget=None,
        toolchain=target.toolchain,
    )


def _default_toolchain() -> Toolchain:
    return Toolchain(DEFAULT_TOOLCHAIN, "c++", None, ("-Os",), (), "strip")


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _kind(value: object) -> str:
    names = {
        dict: "a table",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a float",
    }
    return names.get(type(value), type(value).__name__)
