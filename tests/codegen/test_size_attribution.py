"""Attribution of a real (tiny) linked program: buckets cover its sections."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.size.attribution import LinkedObject, attribute, bucket_of_source
from selective_build.codegen.size.dtypes import template_dtypes
from selective_build.codegen.size.elf import (
    SHF_EXECINSTR,
    object_symbols,
    read_sections,
    read_symbols,
)
from selective_build.codegen.size_buckets import OVERHEAD, SHARED_KERNELS, kernel_bucket

SOURCES = {
    "runtime/core/core.cpp": "int core_value(int x) { return x * 3 + 1; }\n",
    "kernels/lib/op_add.cpp": (
        "template <typename T> T twice(T x) { return x + x; }\n"
        "inline int helper(int x) { return x ^ 7; }\n"
        "float add_float(float x) { return twice<float>(x) + helper(2); }\n"
    ),
    "kernels/lib/op_mul.cpp": (
        "inline int helper(int x) { return x ^ 7; }\nint mul_int(int x) { return x * helper(x); }\n"
    ),
    "runtime/runner/main.cpp": (
        "int core_value(int); float add_float(float); int mul_int(int);\n"
        "int main(int argc, char**) { return core_value(argc) + mul_int(argc)"
        " + (int)add_float((float)argc); }\n"
    ),
}


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[Path, Path]]]:
    assert shutil.which("c++") and shutil.which("strip"), "the build needs c++ and strip"
    root = tmp_path_factory.mktemp("link")
    pairs = []
    for name, text in SOURCES.items():
        source = root / name
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(text)
        obj = source.with_suffix(".o")
        flags = ["-O1", "-fno-inline", "-ffunction-sections", "-fdata-sections"]
        subprocess.run(["c++", *flags, "-c", str(source), "-o", str(obj)], check=True)
        pairs.append((Path(name), obj))
    unstripped = root / "runner.unstripped"
    command = ["c++", "-Wl,--gc-sections", "-o", str(unstripped), *(str(o) for _, o in pairs)]
    subprocess.run(command, check=True)
    subprocess.run(
        ["strip", "--strip-all", "-o", str(root / "runner"), str(unstripped)], check=True
    )
    return root, pairs


def _attribute(root: Path, pairs: list[tuple[Path, Path]]):  # type: ignore[no-untyped-def]
    kernels = {Path("kernels/lib/op_add.cpp"): "lib", Path("kernels/lib/op_mul.cpp"): "lib"}
    runtime = {Path("runtime/runner/main.cpp"): "runner"}  # the runtime's own buckets
    objects = [
        LinkedObject(
            bucket_of_source(source, runtime.get(source), kernels),
            source.name,
            object_symbols(obj),
        )
        for source, obj in pairs
    ]
    runner = root / "runner"
    symbols = read_symbols(root / "runner.unstripped")
    return attribute(runner.stat().st_size, read_sections(runner), symbols, objects)


def test_buckets_cover_the_sections_and_overhead_the_rest(
    linked: tuple[Path, list[tuple[Path, Path]]],
) -> None:
    root, pairs = linked
    attribution = _attribute(root, pairs)
    # The buckets sum to the file by construction (overhead is the remainder), so check
    # them against the stripped runner's own section headers instead. Named buckets hold
    # only bytes of allocated sections, and every byte of the code and data sections.
    sections = [s for s in read_sections(root / "runner") if s.allocated and s.in_file]
    content = sum(s.size for s in sections if s.name in (".text", ".rodata", ".data"))
    named = attribution.file - attribution.bytes_of(OVERHEAD)
    assert content <= named <= sum(s.size for s in sections)
    # Code: all of .text, and no more than the executable sections (.init, .plt, ...) hold.
    code = sum(b.code for b in attribution.buckets)
    text = next(s.size for s in sections if s.name == ".text")
    assert text <= code <= sum(s.size for s in sections if s.flags & SHF_EXECINSTR)
    assert attribution.bytes_of(OVERHEAD) > 0
    names = {b.name for b in attribution.buckets}
    assert {"core", "runner", "kernel:lib/op_add", "kernel:lib/op_mul"} <= names


def test_a_helper_two_kernels_define_is_shared(
    linked: tuple[Path, list[tuple[Path, Path]]],
) -> None:
    root, pairs = linked
    shared = _attribute(root, pairs).bucket(SHARED_KERNELS)
    assert shared is not None and any("helper" in name for name, _ in shared.top_symbols)


def test_dtype_instantiations_are_counted(linked: tuple[Path, list[tuple[Path, Path]]]) -> None:
    root, pairs = linked
    add = _attribute(root, pairs).bucket("kernel:lib/op_add")
    assert add is not None and add.dtypes.get("Float", 0) > 0


def test_objects_map_to_buckets_by_kernel_then_by_the_runtime_s_word() -> None:
    """A kernel's bucket comes from the resolution; an object of the runtime's own is in the
    bucket the runtime names (Note [Target runtime]), else the core's."""
    kernels = {Path("kernels/portable/op_add.cpp"): "portable"}
    assert bucket_of_source(Path("runtime/loader/program.cpp"), "loader", kernels) == "loader"
    assert bucket_of_source(Path("runtime/loader/program.cpp"), None, kernels) == "core"
    add = Path("kernels/portable/op_add.cpp")
    assert bucket_of_source(add, None, kernels) == "kernel:portable/op_add"
    assert kernel_bucket("prim", Path("kernels/prim/op_sym_size.cpp")) == "kernel:prim/op_sym_size"


@pytest.mark.parametrize(
    ("mangled", "dtypes"),
    [
        (
            "_ZN8portable10binary_rowINS_12_GLOBAL__N_13AddEfEEvRKNS_9BinaryRowERKN2rt6ScalarE",
            {ScalarType.Float},
        ),
        (
            "_ZN8portable12binary_mixedIN2rt13DtypeDispatchILj35071ELj64EEENS_12_GLOBAL__N_13AddE"
            "NS1_4HalfEEEvRNS1_13KernelContextEPKcRNS_10BinaryCallE",
            {ScalarType.Half},
        ),
        ("_ZN8portable11StridedWalkILi3EE8next_rowEv", set()),
        ("_ZN8portable7add_outERN2rt13KernelContextENS0_4SpanIKPNS0_6EValueEEE", set()),
        ("main", set()),
    ],
)
def test_template_dtypes(mangled: str, dtypes: set[ScalarType]) -> None:
    assert template_dtypes(mangled) == dtypes
