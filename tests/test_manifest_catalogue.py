"""A catalogue of malformed manifests and hostile inputs (issue 13): each ends in ONE line
naming the file and the key path, a non-zero exit, no traceback, nothing written outside
`build/`.

Most variants run in-process through what `doit` runs: `load_manifest` (tasks/manifest.py
prints its InputError as `error: <line>` and exits 2), then the readers the build's tasks
call on the YAML files the manifest names (each task prints the same one line). A handful
run through real `doit` in a copy of the repository to show the two paths agree.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError, printable
from selective_build.codegen.kernel_library import read_kernel_library, read_schema_operators
from selective_build.codegen.manifest import load_manifest
from selective_build.codegen.selection import read_selection
from tests.workspace import copy_repository, doit

BASE = """\
[toolchains.host]
compiler = "c++"
cflags = ["-Os"]

[libraries.lib]
functions = "functions.yaml"
sources = "kernels"

[models.m1]
path = "m1.pte"
method = "forward"
inputs = ["in0.npy"]
outputs = ["out0.npy"]

[targets.tiny]
models = ["m1"]
libraries = ["lib"]
extra_ops = ["aten::add.out"]
op_dtypes = { "aten::mul.out" = ["Float"] }
op_schemas = ["schema.yaml"]
selections = ["selection.yaml"]
dtype_selective = true
size_budget = "24 KiB"
size_budgets = { text = "20 KiB" }
toolchain = "host"
"""
ADD_FUNC = "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
FUNCTIONS = f"- func: {ADD_FUNC}\n  kernels:\n    - arg_meta: null\n      kernel_name: t::add_out\n"
SCHEMA = "- func: aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
SELECTION = "operators:\n  aten::add.out:\n    debug_info: [m1.pte]\n"
ALIAS_BOMB = "a0: &a0 [x, x]\n" + "".join(
    f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 31)
)
NON_UTF8 = os.fsdecode(b"m\xff.pte")


def workspace(root: Path) -> Path:
    """A directory holding a valid manifest and every file it names."""
    (root / "kernels").mkdir(parents=True, exist_ok=True)
    (root / "kernels" / "op_add.cpp").write_text("")
    (root / "functions.yaml").write_text(FUNCTIONS)
    (root / "schema.yaml").write_text(SCHEMA)
    (root / "selection.yaml").write_text(SELECTION)
    for name in ("m1.pte", "in0.npy", "out0.npy"):
        (root / name).write_bytes(b"")
    manifest = root / "selective.toml"
    manifest.write_text(BASE)
    return manifest


def replace(old: str, new: str) -> Callable[[Path], None]:
    """Edit the manifest text (the old text must be there: a variant cannot go stale)."""

    def edit(root: Path) -> None:
        manifest = root / "selective.toml"
        text = manifest.read_text()
        assert old in text, old
        manifest.write_text(text.replace(old, new, 1))

    return edit


def manifest_bytes(data: bytes) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        (root / "selective.toml").write_bytes(data)

    return edit


def model_path(make: Callable[[Path], None], name: str = "bad") -> Callable[[Path], None]:
    """Point models.m1.path at `root/name`, made by `make`."""

    def edit(root: Path) -> None:
        make(root / name)
        replace('path = "m1.pte"', f'path = "{name}"')(root)

    return edit


def file_at(
    key_text: str, make: Callable[[Path], None], name: str = "bad"
) -> Callable[[Path], None]:
    """Replace the manifest text `key_text` (a quoted path) by `name`, made by `make`."""

    def edit(root: Path) -> None:
        make(root / name)
        replace(key_text, f'"{name}"')(root)

    return edit


def yaml_file(name: str, text: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        (root / name).write_text(text)

    return edit


def directory(path: Path) -> None:
    path.mkdir()


def pipe(path: Path) -> None:
    os.mkfifo(path)


def device(path: Path) -> None:
    path.symlink_to("/dev/null")


def loop(path: Path) -> None:
    path.symlink_to(path.name)


def dangling(path: Path) -> None:
    path.symlink_to("nowhere")


def huge(path: Path) -> None:
    with path.open("wb") as file:
        file.truncate(1 << 30)  # sparse: costs nothing unless read


def nothing(path: Path) -> None:
    pass


def regular(path: Path) -> None:
    path.write_bytes(b"")


@dataclass(frozen=True)
class Variant:
    id: str
    edit: Callable[[Path], None]
    file: str  # the file the line names, relative to the workspace
    text: str  # what the line says after "<file>: " (its start: key path and problem)
    manifest: str = "selective.toml"  # the manifest's name


M = "selective.toml"
T = "targets.tiny"
VARIANTS = [
    # Syntax.
    Variant("unterminated string", replace('"24 KiB"', '"24 KiB'), M, "invalid TOML"),
    Variant("missing value", replace('size_budget = "24 KiB"', "size_budget ="), M, "invalid TOML"),
    Variant(
        "duplicate key",
        replace("toolchain = ", 'toolchain = "host"\ntoolchain = '),
        M,
        "invalid TOML",
    ),
    Variant("unclosed header", replace("[targets.tiny]", "[targets.tiny"), M, "invalid TOML"),
    Variant(
        "not UTF-8",
        manifest_bytes(BASE.encode() + b"# \xff\xfe\n"),
        M,
        "manifest is not UTF-8 text",
    ),
    Variant("NUL byte", manifest_bytes(BASE.encode() + b"# \x00\n"), M, "invalid TOML"),
    Variant(
        "5,000 nested arrays",
        replace('extra_ops = ["aten::add.out"]', "extra_ops = " + "[" * 5000),
        M,
        "invalid TOML: arrays or tables nested too deeply",
    ),
    Variant(
        "5,000 nested closed arrays",
        replace('extra_ops = ["aten::add.out"]', "extra_ops = " + "[" * 5000 + "]" * 5000),
        M,
        "invalid TOML: arrays or tables nested too deeply",
    ),
    Variant(
        "5,000 nested inline tables",
        replace(
            'size_budgets = { text = "20 KiB" }',
            "size_budgets = " + "{a=" * 5000 + "1" + "}" * 5000,
        ),
        M,
        "invalid TOML: arrays or tables nested too deeply",
    ),
    Variant("empty manifest", manifest_bytes(b""), M, "targets: missing required key"),
    Variant(
        "no targets", manifest_bytes(b"[targets]\n"), M, "targets: the manifest defines no target"
    ),
    # Unknown keys.
    Variant(
        "unknown top-level table",
        replace("[targets.tiny]", "[target.x]\n[targets.tiny]"),
        M,
        "target: unknown key",
    ),
    Variant(
        "unknown toolchain key",
        replace('compiler = "c++"', 'compiler = "c++"\ncompilr = "x"'),
        M,
        "toolchains.host.compilr: unknown key",
    ),
    Variant(
        "unknown library key",
        replace('sources = "kernels"', 'sources = "kernels"\nsource = "k"'),
        M,
        "libraries.lib.source: unknown key",
    ),
    Variant(
        "unknown model key",
        replace('method = "forward"', 'method = "forward"\nmethods = []'),
        M,
        "models.m1.methods: unknown key",
    ),
    Variant(
        "unknown target key",
        replace('toolchain = "host"', 'toolchain = "host"\nsize_budgett = 1'),
        M,
        f"{T}.size_budgett: unknown key",
    ),
    Variant(
        "unknown budget measure",
        replace('text = "20 KiB"', 'texts = "20 KiB"'),
        M,
        f"{T}.size_budgets.'texts': unknown measure",
    ),
    Variant(
        "budget of 'file'",
        replace('text = "20 KiB"', 'file = "20 KiB"'),
        M,
        f"{T}.size_budgets.'file': the runner file's limit is size_budget",
    ),
    Variant(
        "missing libraries",
        replace('libraries = ["lib"]\n', ""),
        M,
        f"{T}.libraries: missing required key",
    ),
    Variant(
        "missing model path",
        replace('path = "m1.pte"\n', ""),
        M,
        "models.m1.path: missing required key",
    ),
    # Types.
    Variant(
        "targets not a table",
        manifest_bytes(b"targets = 1\n"),
        M,
        "targets: expected dict, got an integer",
    ),
    Variant(
        "target not a table",
        replace("[targets.tiny]", "[targets]\nother = 3\n[targets.tiny]"),
        M,
        "targets.other: expected a table, got an integer",
    ),
    Variant(
        "path an integer",
        replace('path = "m1.pte"', "path = 5"),
        M,
        "models.m1.path: expected str, got an integer",
    ),
    Variant(
        "inputs a string",
        replace('inputs = ["in0.npy"]', 'inputs = "in0.npy"'),
        M,
        "models.m1.inputs: expected a list of .npy files or one .npz archive, got a string",
    ),
    Variant(
        "input an integer",
        replace('inputs = ["in0.npy"]', "inputs = [1]"),
        M,
        "models.m1.inputs[0]: expected str, got an integer",
    ),
    Variant(
        "libraries a string",
        replace('libraries = ["lib"]', 'libraries = "lib"'),
        M,
        f"{T}.libraries: expected list, got a string",
    ),
    Variant(
        "extra_ops nested",
        replace('extra_ops = ["aten::add.out"]', "extra_ops = [[]]"),
        M,
        f"{T}.extra_ops[0]: expected str, got an array",
    ),
    Variant(
        "op_dtypes an array",
        replace('op_dtypes = { "aten::mul.out" = ["Float"] }', "op_dtypes = []"),
        M,
        f"{T}.op_dtypes: expected dict, got an array",
    ),
    Variant(
        "op_dtypes entry a string",
        replace('["Float"] }', '"Float" }'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': expected list, got a string",
    ),
    Variant(
        "dtype_selective an integer",
        replace("dtype_selective = true", "dtype_selective = 1"),
        M,
        f"{T}.dtype_selective: expected bool, got an integer",
    ),
    Variant(
        "include_all_operators a string",
        replace("dtype_selective = true", 'dtype_selective = true\ninclude_all_operators = "no"'),
        M,
        f"{T}.include_all_operators: expected bool, got a string",
    ),
    Variant(
        "toolchain an integer",
        replace('toolchain = "host"', "toolchain = 3"),
        M,
        f"{T}.toolchain: expected str, got an integer",
    ),
    Variant(
        "cflags a string",
        replace('cflags = ["-Os"]', 'cflags = "-Os"'),
        M,
        "toolchains.host.cflags: expected list, got a string",
    ),
    Variant(
        "method an integer",
        replace('method = "forward"', "method = 1"),
        M,
        "models.m1.method: expected str, got an integer",
    ),
    Variant(
        "budget a boolean",
        replace('size_budget = "24 KiB"', "size_budget = true"),
        M,
        f'{T}.size_budget: expected a size such as "24 KiB", got a boolean',
    ),
    Variant(
        "budget a float",
        replace('size_budget = "24 KiB"', "size_budget = 1.5"),
        M,
        f'{T}.size_budget: expected a size such as "24 KiB", got a float',
    ),
    Variant(
        "budget a date",
        replace('size_budget = "24 KiB"', "size_budget = 2026-11-25"),
        M,
        f'{T}.size_budget: expected a size such as "24 KiB", got date',
    ),
    Variant(
        "size_baseline an integer",
        replace('toolchain = "host"', 'toolchain = "host"\nsize_baseline = 3'),
        M,
        f"{T}.size_baseline: expected true or a target's name, got an integer",
    ),
    # Ranges and overflow.
    Variant(
        "negative budget",
        replace('size_budget = "24 KiB"', "size_budget = -1"),
        M,
        f"{T}.size_budget: size -1 is negative",
    ),
    Variant(
        "budget over 2^64",
        replace('size_budget = "24 KiB"', "size_budget = 18446744073709551617"),
        M,
        f"{T}.size_budget: size '18446744073709551617' is larger than the maximum, 1 TiB",
    ),
    Variant(
        "budget of 10^20 KiB",
        replace('"24 KiB"', '"99999999999999999999 KiB"'),
        M,
        f"{T}.size_budget: size '99999999999999999999 KiB' is larger than the maximum",
    ),
    Variant(
        "bucket budget over 2^64",
        replace('text = "20 KiB"', "text = 18446744073709551617"),
        M,
        f"{T}.size_budgets.'text': size '18446744073709551617' is larger than the maximum",
    ),
    Variant(
        "ambiguous KB",
        replace('"24 KiB"', '"64 KB"'),
        M,
        f"{T}.size_budget: size '64 KB': unit 'KB' is ambiguous; "
        "write KiB (1,024 B) or kB (1,000 B)",
    ),
    Variant(
        "ambiguous MB",
        replace('"24 KiB"', '"1 MB"'),
        M,
        f"{T}.size_budget: size '1 MB': unit 'MB' is ambiguous",
    ),
    Variant(
        "lowercase kib",
        replace('"24 KiB"', '"24 kib"'),
        M,
        f"{T}.size_budget: size '24 kib': units are case-sensitive; write KiB",
    ),
    Variant(
        "fraction of a byte",
        replace('"24 KiB"', '"1.5 B"'),
        M,
        f"{T}.size_budget: size '1.5 B' is not a whole number of bytes",
    ),
    Variant(
        "unknown unit",
        replace('"24 KiB"', '"2 TiB"'),
        M,
        f"{T}.size_budget: size '2 TiB': unknown unit 'TiB'",
    ),
    Variant(
        "budget with a newline",
        replace('"24 KiB"', '"24 KiB\\n"'),
        M,
        f"{T}.size_budget: size '24 KiB\\n' is not a number with a unit",
    ),
    Variant(
        "negative text size",
        replace('"20 KiB"', '"-5 KiB"'),
        M,
        f"{T}.size_budgets.'text': size '-5 KiB' is not a number with a unit",
    ),
    # Names.
    Variant(
        "300-character target name",
        replace("[targets.tiny]", f"[targets.{'t' * 300}]"),
        M,
        f"targets.{'t' * 300}: name of 300 characters is longer than 64",
    ),
    Variant(
        "65-character library name",
        replace("[libraries.lib]", f"[libraries.{'l' * 65}]"),
        M,
        f"libraries.{'l' * 65}: name of 65 characters is longer than 64",
    ),
    Variant(
        "name with a space",
        replace("[targets.tiny]", '[targets."a b"]'),
        M,
        "targets.a b: name 'a b' may use only letters, digits, '_' and '-'",
    ),
    Variant(
        "name with a newline",
        replace("[targets.tiny]", '[targets."a\\nb"]'),
        M,
        "targets.a\\nb: name 'a\\nb' may use only",
    ),
    Variant(
        "name with a slash",
        replace("[targets.tiny]", '[targets."../x"]'),
        M,
        "targets.../x: name '../x' may use only",
    ),
    Variant(
        "name starting with a dash",
        replace("[targets.tiny]", '[targets."-x"]'),
        M,
        "targets.-x: name '-x' may use only",
    ),
    Variant(
        "non-ASCII name",
        replace("[targets.tiny]", '[targets."tárget"]'),
        M,
        "targets.tárget: name 'tárget' may use only",
    ),
    Variant(
        "empty name", replace("[models.m1]", '[models.""]'), M, "models.: name '' may use only"
    ),
    Variant(
        "name with NUL",
        replace("[models.m1]", '[models."m\\u0000"]'),
        M,
        "models.m\\x00: name 'm\\x00' may use only",
    ),
    Variant(
        "name with an escape sequence",
        replace("[models.m1]", '[models."m\\u001b[31m"]'),
        M,
        "models.m\\x1b[31m: name 'm\\x1b[31m' may use only",
    ),
    # References.
    Variant(
        "unknown model",
        replace('models = ["m1"]', 'models = ["m2"]'),
        M,
        f"{T}.models[0]: unknown model 'm2' (defined: m1)",
    ),
    Variant(
        "unknown library",
        replace('libraries = ["lib"]', 'libraries = ["nosuch"]'),
        M,
        f"{T}.libraries[0]: unknown library 'nosuch'",
    ),
    Variant(
        "model listed twice",
        replace('models = ["m1"]', 'models = ["m1", "m1"]'),
        M,
        f"{T}.models[1]: 'm1' is listed twice",
    ),
    Variant(
        "no library",
        replace('libraries = ["lib"]', "libraries = []"),
        M,
        f"{T}.libraries: a target needs at least one kernel library",
    ),
    Variant(
        "unknown toolchain",
        replace('toolchain = "host"', 'toolchain = "arm"'),
        M,
        f"{T}.toolchain: unknown toolchain 'arm'",
    ),
    Variant(
        "baseline is itself",
        replace('toolchain = "host"', 'toolchain = "host"\nsize_baseline = "tiny"'),
        M,
        f"{T}.size_baseline: 'tiny' is not another target",
    ),
    # Operator names and kernel keys.
    Variant(
        "operator with a newline",
        replace('"aten::add.out"]', '"aten::add.out\\n"]'),
        M,
        f"{T}.extra_ops[0]: operator 'aten::add.out\\n' has an invalid overload name",
    ),
    Variant(
        "operator with a leading space",
        replace('"aten::add.out"]', '" aten::add.out"]'),
        M,
        f"{T}.extra_ops[0]: operator ' aten::add.out' is not a valid",
    ),
    Variant(
        "operator with a trailing space",
        replace('"aten::add.out"]', '"aten::add.out "]'),
        M,
        f"{T}.extra_ops[0]: operator 'aten::add.out ' has an invalid overload name",
    ),
    Variant(
        "operator without namespace",
        replace('"aten::add.out"]', '"add.out"]'),
        M,
        f"{T}.extra_ops[0]: operator 'add.out' has no namespace",
    ),
    Variant(
        "operator with a shell command",
        replace('"aten::add.out"]', '"aten::add.out;rm -rf /"]'),
        M,
        f"{T}.extra_ops[0]: operator 'aten::add.out;rm -rf /' has an invalid overload name",
    ),
    Variant(
        "operator with a quote",
        replace('"aten::add.out"]', '"aten::add\\"); abort(); (\\".out"]'),
        M,
        f"{T}.extra_ops[0]: operator",
    ),
    Variant(
        "non-ASCII operator",
        replace('"aten::add.out"]', '"aten::ädd.out"]'),
        M,
        f"{T}.extra_ops[0]: operator 'aten::ädd.out' is not a valid",
    ),
    Variant(
        "op_dtypes key with a newline",
        replace('"aten::mul.out" =', '"aten::mul.out\\n" ='),
        M,
        f"{T}.op_dtypes.'aten::mul.out\\n': "
        "operator 'aten::mul.out\\n' has an invalid overload name",
    ),
    Variant(
        "dtype with a space",
        replace('["Float"]', '[" Float"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': unknown dtype ' Float'",
    ),
    Variant(
        "unknown dtype",
        replace('["Float"]', '["Flaot"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': unknown dtype 'Flaot'",
    ),
    Variant(
        "kernel key with a space",
        replace('["Float"]', '["v1/ 6;0"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': kernel key 'v1/ 6;0': tensor meta ' 6;0' is not",
    ),
    Variant(
        "kernel key with a newline",
        replace('["Float"]', '["v1/6;0\\n"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': kernel key 'v1/6;0\\n': tensor meta '6;0\\n' is not",
    ),
    Variant(
        "kernel key with a sign",
        replace('["Float"]', '["v1/+6;0"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': kernel key 'v1/+6;0': tensor meta '+6;0' is not",
    ),
    Variant(
        "kernel key with a padded number",
        replace('["Float"]', '["v1/06;0"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': kernel key 'v1/06;0': tensor meta '06;0' is not",
    ),
    Variant(
        "kernel key with an unknown dtype",
        replace('["Float"]', '["v1/99;0"]'),
        M,
        f"{T}.op_dtypes.'aten::mul.out': kernel key 'v1/99;0': unknown ScalarType number 99",
    ),
    # Paths that are not regular files.
    Variant(
        "missing model", model_path(nothing), M, "models.m1.path: file {root}/bad does not exist"
    ),
    Variant(
        "model is a directory",
        model_path(directory),
        M,
        "models.m1.path: file {root}/bad is a directory",
    ),
    Variant(
        "model is a named pipe",
        model_path(pipe),
        M,
        "models.m1.path: file {root}/bad is a named pipe",
    ),
    Variant(
        "model is a device",
        model_path(device),
        M,
        "models.m1.path: file {root}/bad is a character device",
    ),
    Variant(
        "model is a symlink loop",
        model_path(loop),
        M,
        "models.m1.path: file {root}/bad is a symbolic link loop",
    ),
    Variant(
        "model is a broken symlink",
        model_path(dangling),
        M,
        "models.m1.path: file {root}/bad is a broken symbolic link",
    ),
    Variant(
        "manifest name not UTF-8",
        nothing,
        NON_UTF8,
        "manifest has a name that is not UTF-8",
        manifest=NON_UTF8,
    ),
    Variant(
        "model name too long",
        model_path(nothing, "m" * 300),
        M,
        f"models.m1.path: file {{root}}/{'m' * 300} has a name too long for the file system",
    ),
    Variant(
        "model under a file",
        model_path(nothing, "m1.pte/x.pte"),
        M,
        "models.m1.path: file {root}/m1.pte/x.pte does not exist (a parent is not a directory)",
    ),
    Variant(
        "model name with a newline",
        model_path(nothing, "a\\nb"),
        M,
        "models.m1.path: file {root}/a\\nb does not exist",
    ),
    Variant(
        "input is a named pipe",
        file_at('"in0.npy"', pipe),
        M,
        "models.m1.inputs[0]: file {root}/bad is a named pipe",
    ),
    Variant(
        "output is a directory",
        file_at('"out0.npy"', directory),
        M,
        "models.m1.outputs[0]: file {root}/bad is a directory",
    ),
    Variant(
        "functions is a directory",
        file_at('"functions.yaml"', directory),
        M,
        "libraries.lib.functions: file {root}/bad is a directory",
    ),
    Variant(
        "sources is a file",
        file_at('"kernels"', regular),
        M,
        "libraries.lib.sources: directory {root}/bad is a file",
    ),
    Variant(
        "sources missing",
        file_at('"kernels"', nothing),
        M,
        "libraries.lib.sources: directory {root}/bad does not exist",
    ),
    Variant(
        "sources is a symlink loop",
        file_at('"kernels"', loop),
        M,
        "libraries.lib.sources: directory {root}/bad is a symbolic link loop",
    ),
    Variant(
        "op_schemas is a device",
        file_at('"schema.yaml"', device),
        M,
        f"{T}.op_schemas[0]: file {{root}}/bad is a character device",
    ),
    Variant(
        "selections is a symlink loop",
        file_at('"selection.yaml"', loop),
        M,
        f"{T}.selections[0]: file {{root}}/bad is a symbolic link loop",
    ),
    Variant(
        "huge manifest",
        lambda root: huge(root / "selective.toml"),
        M,
        "manifest is larger than 16 MiB",
    ),
    # Hostile library, schema and selection YAML (read by the codegen and selection tasks).
    Variant(
        "functions alias bomb",
        yaml_file("functions.yaml", ALIAS_BOMB),
        "functions.yaml",
        "invalid YAML at line 1, column 5: anchors and aliases are not accepted",
    ),
    Variant(
        "functions syntax error",
        yaml_file("functions.yaml", FUNCTIONS + "  - {oops\n"),
        "functions.yaml",
        "invalid YAML at line 5, column 3: expected <block end>, but found '-'",
    ),
    Variant(
        "functions 5,000 nested",
        yaml_file("functions.yaml", "[" * 5000),
        "functions.yaml",
        "invalid YAML: nested too deeply",
    ),
    Variant(
        "functions op a list",
        yaml_file("functions.yaml", FUNCTIONS.replace(f"func: {ADD_FUNC}", "func: [add, out]")),
        "functions.yaml",
        "entry 0: func: expected a string, got a list",
    ),
    Variant(
        "functions op with a newline",
        yaml_file(
            "functions.yaml",
            FUNCTIONS.replace(
                f"func: {ADD_FUNC}", 'func: "' + ADD_FUNC.replace(".out", ".o\\nut", 1) + '"'
            ),
        ),
        "functions.yaml",
        "entry 0: operator 'aten::add.o\\nut' has an invalid overload name",
    ),
    Variant(
        "functions kernel name injection",
        yaml_file("functions.yaml", FUNCTIONS.replace("t::add_out", '"t::add(); system(\\"x\\")"')),
        "functions.yaml",
        "entry 0: aten::add.out: kernel_name 't::add(); system(\"x\")' is not a C++ qualified name",
    ),
    Variant(
        "functions type alias not a string",
        yaml_file(
            "functions.yaml",
            f"- func: {ADD_FUNC}\n  type_alias: {{T0: [[Float]]}}\n  dim_order_alias: {{D0: [0]}}\n"
            "  kernels: [{arg_meta: {self: [T0, D0]}, kernel_name: t::a}]\n",
        ),
        "functions.yaml",
        "entry 0: aten::add.out: type_alias.T0[0]: expected a string, got a list",
    ),
    Variant(
        "functions huge", yaml_file("functions.yaml", ""), "functions.yaml", "larger than 64 MiB"
    ),
    Variant(
        "functions not a list",
        yaml_file("functions.yaml", "op: add.out\n"),
        "functions.yaml",
        "expected a list of operator entries",
    ),
    Variant(
        "functions not UTF-8",
        lambda root: (root / "functions.yaml").write_bytes(b"- op: \xff\n"),
        "functions.yaml",
        "not UTF-8 text",
    ),
    Variant(
        "selection alias",
        yaml_file("selection.yaml", "operators: &o {}\net_kernel_metadata: *o\n"),
        "selection.yaml",
        "invalid YAML at line 1, column 12: anchors and aliases are not accepted",
    ),
    Variant(
        "selection debug_info not strings",
        yaml_file("selection.yaml", "operators:\n  aten::add.out:\n    debug_info: [{a: 1}]\n"),
        "selection.yaml",
        "operators.'aten::add.out'.debug_info[0]: expected a string, got a mapping",
    ),
    Variant(
        "selection key with whitespace",
        yaml_file(
            "selection.yaml", SELECTION + "et_kernel_metadata:\n  aten::add.out: ['v1/6;0, 1']\n"
        ),
        "selection.yaml",
        "kernel key 'v1/6;0, 1': tensor meta '6;0, 1' is not",
    ),
    Variant(
        "schema syntax error",
        yaml_file("schema.yaml", "- func: [\n"),
        "schema.yaml",
        "invalid YAML at line 2, column 1:",
    ),
    Variant(
        "schema func an integer",
        yaml_file("schema.yaml", "- func: 7\n"),
        "schema.yaml",
        "entry 0: func: expected a string, got an integer",
    ),
]


def _fix_huge(variant: Variant, root: Path) -> None:
    # A sparse 1 GiB functions.yaml: written here (yaml_file writes text).
    if variant.id == "functions huge":
        huge_path = root / "functions.yaml"
        huge_path.unlink()
        huge(huge_path)


def run_like_the_build(manifest: Path) -> None:
    """What `doit build` reads before compiling: the manifest, then the YAML each task reads."""
    loaded = load_manifest(manifest)
    for library in loaded.libraries.values():
        read_kernel_library(library.name, library.functions, library.sources)
    for target in loaded.targets.values():
        for schema in target.op_schemas:
            read_schema_operators(schema)
        for selection in target.selections:
            read_selection(selection)


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under `root` outside the build/ folders, with its size and mtime (no file
    is read); a folder by its name only, as creating build/ in it changes its mtime."""
    result = {}
    for directory_path, directories, files in os.walk(root):
        directories[:] = [d for d in directories if d != "build"]
        for name in directories:
            result[str(Path(directory_path, name))] = (0, 0)
        for name in files:
            info = Path(directory_path, name).lstat()
            result[str(Path(directory_path, name))] = (info.st_size, info.st_mtime_ns)
    return result


def test_the_catalogue_is_large_and_distinct() -> None:
    assert len(VARIANTS) >= 80
    assert len({variant.id for variant in VARIANTS}) == len(VARIANTS)


def test_the_base_workspace_is_valid(tmp_path: Path) -> None:
    run_like_the_build(workspace(tmp_path))


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.id for variant in VARIANTS])
def test_each_variant_is_one_line(tmp_path: Path, variant: Variant) -> None:
    manifest = workspace(tmp_path)
    if variant.manifest != manifest.name:
        manifest = manifest.rename(tmp_path / variant.manifest)
    variant.edit(tmp_path)
    _fix_huge(variant, tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(InputError) as caught:
        run_like_the_build(manifest)
    message = str(caught.value)
    expected = printable(f"{tmp_path / variant.file}: {variant.text.format(root=tmp_path)}")
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(expected), f"\n{message}\n{expected}"
    assert snapshot(tmp_path) == before


# Through real doit: the manifest check (exit 2, one line on stderr) and a task reading a
# hostile YAML (the codegen task fails with one line; nothing outside build/ changes).
DOIT_VARIANTS = [
    ("5,000 nested arrays", "build"),
    ("model is a named pipe", "build"),
    ("300-character target name", "build"),
    ("budget over 2^64", "build"),
    ("ambiguous KB", "build"),
    ("functions alias bomb", "codegen:tiny"),
    ("selection debug_info not strings", "selection:tiny"),
]


@pytest.mark.parametrize(("name", "task"), DOIT_VARIANTS, ids=[name for name, _ in DOIT_VARIANTS])
def test_through_doit(tmp_path: Path, name: str, task: str) -> None:
    variant = next(variant for variant in VARIANTS if variant.id == name)
    workdir = copy_repository(tmp_path / "repo")
    root = workdir / "case"
    root.mkdir()
    workspace(root)
    # A real model, so every task before the failing one succeeds.
    (root / "m1.pte").write_bytes((workdir / "examples/models/add_mul/add_mul.pte").read_bytes())
    variant.edit(root)
    before = snapshot(workdir)
    result = doit(workdir, f"manifest={root / 'selective.toml'}", task, timeout=600)
    lines = result.stderr.strip().splitlines()
    expected = f"error: {root / variant.file}: {variant.text.format(root=root)}"
    assert result.returncode != 0
    assert len(lines) == 1 and lines[0].startswith(expected), result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert snapshot(workdir) == before
    if task == "build":
        assert result.returncode == 2
