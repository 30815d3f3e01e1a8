from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen import isa
from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest import load_manifest
from selective_build.codegen.model import OperatorName

VALID = """
[toolchains.host]
compiler = "c++"
cflags = ["-Os"]

[libraries.portable]
functions = "functions.yaml"
sources = "kernels"

[models.m1]
path = "m1.pte"
inputs = ["in0.npy"]
outputs = ["out0.npy"]

[targets.tiny]
models = ["m1"]
libraries = ["portable"]
extra_ops = ["aten::add.out"]
dtype_selective = true
size_budget = "24 KiB"
"""


def write_manifest(tmp_path: Path, text: str) -> Path:
    for name in ("functions.yaml", "m1.pte", "in0.npy", "out0.npy"):
        (tmp_path / name).write_text("")
    (tmp_path / "kernels").mkdir(exist_ok=True)
    path = tmp_path / "selective.toml"
    path.write_text(text)
    return path


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(InputError) as caught:
        load_manifest(write_manifest(tmp_path, text))
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_valid_manifest_parses_into_frozen_model(tmp_path: Path) -> None:
    manifest = load_manifest(write_manifest(tmp_path, VALID))
    target = manifest.targets["tiny"]
    assert target.models == ("m1",)
    assert target.extra_ops == (OperatorName("aten", "add", "out"),)
    assert target.dtype_selective is True
    assert target.size_budget == 24 * 1024
    assert target.toolchain == "host"
    assert manifest.models["m1"].path == tmp_path / "m1.pte"
    assert manifest.models["m1"].method == "forward"
    assert manifest.libraries["portable"].sources == tmp_path / "kernels"


def test_default_toolchain_when_none_is_declared(tmp_path: Path) -> None:
    text = VALID.replace('[toolchains.host]\ncompiler = "c++"\ncflags = ["-Os"]\n', "")
    manifest = load_manifest(write_manifest(tmp_path, text))
    assert manifest.toolchains["host"].compile_command() == ("c++",)


def test_instruction_sets_of_toolchains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Note [Instruction sets]: host takes the build machine's best unless it names one;
    # x86-64-v3, x86-64-v4 and native are built in; another toolchain adds no flag.
    monkeypatch.setattr(isa, "best", lambda: "x86-64-v3")
    text = VALID + '[toolchains.arm]\ncompiler = "aarch64-linux-gnu-g++"\n'
    toolchains = load_manifest(write_manifest(tmp_path, text)).toolchains
    assert (toolchains["host"].isa, toolchains["host"].isa_from_machine) == ("x86-64-v3", True)
    assert toolchains["host"].isa_phrase() == "isa x86-64-v3 (the build machine's best)"
    for name in ("x86-64-v3", "x86-64-v4", "native"):
        assert (toolchains[name].isa, toolchains[name].cflags) == (name, ("-Os",))
        assert toolchains[name].isa_phrase() == f"isa {name}"
    assert toolchains["arm"].isa is None
    pinned = VALID.replace('cflags = ["-Os"]', 'cflags = ["-Os"]\nisa = "x86-64-v4"')
    host = load_manifest(write_manifest(tmp_path, pinned)).toolchains["host"]
    assert (host.isa, host.isa_from_machine) == ("x86-64-v4", False)
    vnni = VALID.replace('cflags = ["-Os"]', 'cflags = ["-Os"]\nisa = "x86-64-v4+avx512vnni"')
    host = load_manifest(write_manifest(tmp_path, vnni)).toolchains["host"]
    assert (host.isa, host.isa_phrase()) == ("x86-64-v4+avx512vnni", "isa x86-64-v4+avx512vnni")
    unpinned = VALID.replace('cflags = ["-Os"]', 'cflags = ["-Os"]\nisa = "none"')
    assert load_manifest(write_manifest(tmp_path, unpinned)).toolchains["host"].isa is None


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            ("[targets.tiny]", "[targets.tiny]\ncolour = 1"),
            "targets.tiny.colour: unknown key (allowed: backends, dtype_selective, extra_ops, "
            "include_all_operators, libraries, models, op_dtypes, op_schemas, runner, "
            "runtime, selections, size_baseline, size_budget, size_budgets, threads, toolchain)",
        ),
        (
            ('models = ["m1"]', 'models = ["m1", "nope"]'),
            "targets.tiny.models[1]: unknown model 'nope' (defined: m1)",
        ),
        (
            ('libraries = ["portable"]', 'libraries = ["nosuch"]'),
            "targets.tiny.libraries[0]: unknown library 'nosuch' (defined: portable;"
            " built in: optimized, portable, prim, quantized)",
        ),
        (
            ('models = ["m1"]', 'models = ["m1", "m1"]'),
            "targets.tiny.models[1]: 'm1' is listed twice",
        ),
        (
            ("dtype_selective = true", 'dtype_selective = "yes"'),
            "targets.tiny.dtype_selective: expected bool, got a string",
        ),
        (
            ("[targets.tiny]", '[targets.tiny]\nrunner = "no"'),
            "targets.tiny.runner: expected bool, got a string",
        ),
        (
            ("[targets.tiny]", '[targets.tiny]\nruntime = "tvm"'),
            "targets.tiny.runtime: unknown runtime 'tvm' (known: ours, executorch)",
        ),
        (
            ("[targets.tiny]", "[targets.tiny]\nrunner = false\nsize_baseline = true"),
            "targets.tiny.size_baseline: a library-only target (runner = false) has no runner",
        ),
        (
            (
                "[targets.tiny]",
                '[targets.lib]\nlibraries = ["portable"]\nrunner = false\n'
                '[targets.tiny]\nsize_baseline = "lib"',
            ),
            "targets.tiny.size_baseline: 'lib' is library-only (runner = false): it has no "
            "runner to compare",
        ),
        (
            ('size_budget = "24 KiB"', 'size_budget = "24 parsecs"'),
            "targets.tiny.size_budget: size '24 parsecs': unknown unit 'parsecs' "
            "(B, kB, KiB, MiB, GiB)",
        ),
        (
            ('size_budget = "24 KiB"', 'size_budgets = { file = "10 KiB" }'),
            "targets.tiny.size_budgets.'file': the runner file's limit is size_budget",
        ),
        (
            ('size_budget = "24 KiB"', 'size_budgets = { textt = "10 KiB" }'),
            "targets.tiny.size_budgets.'textt': unknown measure or bucket (text, data, bss, "
            "kernels, core, loader, executor, registry, runner, registration, adapter, "
            "kernels:shared, libc, unnamed, overhead, kernel:<library>/op_<name>)",
        ),
        (
            ('size_budget = "24 KiB"', "size_budget = true"),
            'targets.tiny.size_budget: expected a size such as "24 KiB", got a boolean',
        ),
        (
            ('path = "m1.pte"', 'path = "missing.pte"'),
            "models.m1.path: file {tmp}/missing.pte does not exist",
        ),
        (
            ('outputs = ["out0.npy"]', 'outputs = ["out0.npy", 3]'),
            "models.m1.outputs[1]: expected str, got an integer",
        ),
        (
            ('extra_ops = ["aten::add.out"]', 'extra_ops = ["add.out"]'),
            "targets.tiny.extra_ops[0]: operator 'add.out' has no namespace "
            "(expected ns::name.overload)",
        ),
        (
            ('functions = "functions.yaml"', 'functions = "gone.yaml"'),
            "libraries.portable.functions: file {tmp}/gone.yaml does not exist",
        ),
        (('sources = "kernels"', ""), "libraries.portable.sources: missing required key"),
        (
            ("[targets.tiny]", '[targets.tiny]\ntoolchain = "arm"'),
            "targets.tiny.toolchain: unknown toolchain 'arm' (defined: host, native, x86-64-v3,"
            " x86-64-v4)",
        ),
        (
            ('cflags = ["-Os"]', 'cflags = ["-Os"]\nisa = "avx512"'),
            "toolchains.host.isa: unknown instruction set 'avx512' (known: x86-64, x86-64-v2, "
            "x86-64-v3, x86-64-v4, native, best, none, or a level followed by +avx512vnni)",
        ),
        (
            ('cflags = ["-Os"]', 'cflags = ["-Os"]\nisa = "x86-64-v3+avx512vnni"'),
            "toolchains.host.isa: 'x86-64-v3+avx512vnni': no extension 'avx512vnni' there "
            "(known: avx512vnni after x86-64-v4 or above)",
        ),
        (
            ('cflags = ["-Os"]', 'cflags = ["-Os"]\nisa = "x86-64-v4+sse5"'),
            "toolchains.host.isa: 'x86-64-v4+sse5': no extension 'sse5' there "
            "(known: avx512vnni after x86-64-v4 or above)",
        ),
        (
            ("[targets.tiny]", "[targets.'bad name']\nlibraries = []\n[targets.tiny]"),
            "targets.bad name: name 'bad name' may use only letters, digits, '_' and '-'",
        ),
        (
            ('libraries = ["portable"]', "libraries = []"),
            "targets.tiny.libraries: a target needs at least one kernel library",
        ),
        (
            ("[targets.tiny]", '[targets.tiny]\nop_dtypes = { "aten::add.out" = ["f16"] }'),
            "targets.tiny.op_dtypes.'aten::add.out': unknown dtype 'f16' (known: Byte, Char, "
            "Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat, ComplexDouble, "
            "Bool, QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4, Bits1x8, Bits2x4, "
            "Bits4x2, Bits8, Bits16, Float8_e5m2, Float8_e4m3fn, Float8_e5m2fnuz, "
            "Float8_e4m3fnuz, UInt16, UInt32, UInt64)",
        ),
        (
            ("[targets.tiny]", '[targets.tiny]\nop_schemas = ["nope.yaml"]'),
            "targets.tiny.op_schemas[0]: file {tmp}/nope.yaml does not exist",
        ),
        (
            ("[targets.tiny]", "[targets.tiny]\nselections = [3]"),
            "targets.tiny.selections[0]: expected str, got an integer",
        ),
        (
            ("[models.m1]", "[models]\nm1 = 5\n[models.m2]"),
            "models.m1: expected a table, got an integer",
        ),
        (
            ('path = "m1.pte"', 'path = "m1.pte"\noutput_limit = "1 GB"'),
            "models.m1.output_limit: size '1 GB': unit 'GB' is ambiguous; write GiB "
            "(1,073,741,824 B) or the number of kB",
        ),
        (
            ('path = "m1.pte"', 'path = "m1.pte"\noutput_limit = 0'),
            "models.m1.output_limit: a limit of 0 bytes lets no output through",
        ),
    ],
)
def test_each_mistake_is_one_line_naming_the_key(
    tmp_path: Path, edit: tuple[str, str], expected: str
) -> None:
    message = error_of(tmp_path, VALID.replace(*edit))
    assert message == f"{tmp_path / 'selective.toml'}: " + expected.format(tmp=tmp_path)


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    message = error_of(tmp_path, "[targets.tiny\n")
    assert message.startswith(f"{tmp_path / 'selective.toml'}: invalid TOML:")


def test_no_targets(tmp_path: Path) -> None:
    assert error_of(tmp_path, "[models]\n").endswith("targets: missing required key")


def test_missing_manifest(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nope.toml: manifest does not exist$"):
        load_manifest(tmp_path / "nope.toml")


def test_size_baseline_true_adds_one_all_operators_target(tmp_path: Path) -> None:
    text = VALID.replace('size_budget = "24 KiB"', 'size_budget = "24 KiB"\nsize_baseline = true')
    text += '\n[targets.other]\nlibraries = ["portable"]\nsize_baseline = true\n'
    manifest = load_manifest(write_manifest(tmp_path, text))
    name = "all-operators.host.portable"
    assert manifest.targets["tiny"].size_baseline == name
    assert manifest.targets["other"].size_baseline == name
    assert list(manifest.targets) == ["tiny", "other", name]
    baseline = manifest.targets[name]
    assert baseline.include_all_operators and not baseline.dtype_selective
    assert (baseline.libraries, baseline.toolchain, baseline.models) == (("portable",), "host", ())
    assert baseline.size_baseline is None and baseline.size_budget is None


def test_size_baseline_names_another_target_or_is_off(tmp_path: Path) -> None:
    text = VALID + '\n[targets.other]\nlibraries = ["portable"]\nsize_baseline = "tiny"\n'
    assert load_manifest(write_manifest(tmp_path, text)).targets["other"].size_baseline == "tiny"
    off = VALID.replace('size_budget = "24 KiB"', 'size_budget = "24 KiB"\nsize_baseline = false')
    manifest = load_manifest(write_manifest(tmp_path, off))
    assert manifest.targets["tiny"].size_baseline is None and list(manifest.targets) == ["tiny"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("3", "targets.tiny.size_baseline: expected true or a target's name, got an integer"),
        ('"tiny"', "targets.tiny.size_baseline: 'tiny' is not another target (defined: tiny)"),
        (  # only `true` adds a target, and only the one of the target's own libraries
            '"all-operators.host.prim"',
            "targets.tiny.size_baseline: 'all-operators.host.prim' is not another target "
            "(defined: tiny)",
        ),
    ],
)
def test_bad_size_baseline(tmp_path: Path, value: str, expected: str) -> None:
    text = VALID.replace(
        'size_budget = "24 KiB"', f'size_budget = "24 KiB"\nsize_baseline = {value}'
    )
    assert error_of(tmp_path, text).endswith(expected)


def test_a_path_too_long_for_the_file_system_is_named(tmp_path: Path) -> None:
    text = VALID.replace('path = "m1.pte"', f'path = "{"m" * 300}.pte"')
    assert error_of(tmp_path, text).endswith(
        f"models.m1.path: file {tmp_path}/{'m' * 300}.pte has a name too long for the file system"
    )


def test_a_models_output_limit(tmp_path: Path) -> None:
    """Issue 22, item 8: verification bounds a model's output bytes, 64 MiB unless the
    model's table says otherwise."""
    manifest = load_manifest(write_manifest(tmp_path, VALID))
    assert manifest.models["m1"].output_limit == 64 << 20
    raised = VALID.replace('path = "m1.pte"', 'path = "m1.pte"\noutput_limit = "3 GiB"')
    manifest = load_manifest(write_manifest(tmp_path, raised))
    assert manifest.models["m1"].output_limit == 3 << 30
