"""The compile plan (codegen/plan/objects.py) of our runtime (codegen/plan/ours.py), with no
build and no file read."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from selective_build.codegen.manifest import Library, Target, Toolchain
from selective_build.codegen.model import OperatorName
from selective_build.codegen.plan.objects import (
    DTYPE_SELECTIVE_DEFINE,
    target_objects,
    unique_objects,
)
from selective_build.codegen.plan.ours import (
    CHANNELS_LAST_DEFINE,
    FOLD_DEFINE,
    FUSE_DEFINE,
    PLACE_CATS_DEFINE,
    PREPARE_DEFINE,
    runtime_sources,
)
from selective_build.codegen.plan.paths import BuildPaths
from selective_build.codegen.plan.steps import CompileStep
from selective_build.codegen.resolution_file import ResolutionFile
from selective_build.codegen.scalar_type import ScalarType
from tests.codegen.plan_support import ours

PATHS = BuildPaths(Path("build"), Path("src"), Path("/work"))
HOST = Toolchain("host", "c++", None, ("-Os",), (), "strip")
RUNTIME = [
    Path("src/runtime/loader/program.cpp"),
    Path("src/runtime/loader/values.cpp"),
    Path("src/runtime/executor/method.cpp"),
    Path("src/runtime/runner/main.cpp"),
]
ADD = Path("kernels/portable/op_add.cpp")
PERMUTE = Path("kernels/portable/op_permute_copy.cpp")
FLOAT = ScalarType.Float


def target(name: str = "a", dtype_selective: bool = True, **changes: object) -> Target:
    made = Target(name, (), ("portable",), (), {}, (), (), False, dtype_selective, None, "host")
    return replace(made, **changes)  # type: ignore[arg-type]


def by_source(steps: list[CompileStep]) -> dict[str, CompileStep]:
    return {str(step.source): step for step in steps}


def objects(
    made: Target,
    kernels: list[Path],
    toolchain: Toolchain = HOST,
    runtime: list[Path] = RUNTIME,
    libraries: list[Library] | None = None,
    op_dtypes: dict[str, frozenset[ScalarType] | None] | None = None,
) -> list[CompileStep]:
    """`made`'s objects with our runtime, its resolution keeping `op_dtypes` (none: no
    resolution yet)."""
    texts = {} if op_dtypes is None else {PATHS.resolution(made.name): resolution(op_dtypes)}
    runtime_of = ours(PATHS, made, toolchain, runtime, texts)
    return target_objects(runtime_of, kernels, libraries or [])


def resolution(op_dtypes: dict[str, frozenset[ScalarType] | None]) -> str:
    ops = {OperatorName.parse(name): dtypes for name, dtypes in op_dtypes.items()}
    return ResolutionFile((), ops, 0).to_json()


def test_runtime_sources_leave_out_the_size_app() -> None:
    app = Path("src/runtime/size_app/minimal_app.cpp")
    context = ours(PATHS, target(), HOST).context
    assert runtime_sources(context, [RUNTIME[1], app, RUNTIME[0]]) == [RUNTIME[0], RUNTIME[1]]
    everything = objects(target(), [], runtime=[*RUNTIME, app])
    assert app not in {step.source for step in everything}


def test_the_runtime_is_shared_and_selective_kernels_are_the_target_s() -> None:
    a = by_source(objects(target("a"), [ADD]))
    b = by_source(objects(target("b"), [ADD]))
    loader = "src/runtime/loader/program.cpp"
    assert a[loader] == b[loader] and a[loader].object.parts[:2] == ("build", ".obj")
    assert a[str(ADD)].object == Path("build/a/obj/kernels/portable/op_add.o")
    assert DTYPE_SELECTIVE_DEFINE in a[str(ADD)].flags
    assert "-Ibuild/a/gen/ops/portable/op_add" in a[str(ADD)].flags
    registration = a["build/a/gen/selected_kernels.cpp"]
    assert registration.object == Path("build/a/obj/selected_kernels.o")
    assert "-Ibuild/a/gen" in registration.flags


def test_kernels_of_targets_that_keep_every_dtype_are_shared() -> None:
    a = by_source(objects(target("a", False), [ADD]))
    c = by_source(objects(target("c", False), [ADD]))
    assert a[str(ADD)] == c[str(ADD)] and a[str(ADD)].object.parts[:2] == ("build", ".obj")
    assert DTYPE_SELECTIVE_DEFINE not in a[str(ADD)].flags


def test_the_bool_constants_source_is_named_by_its_bit() -> None:
    values = "src/runtime/loader/values.cpp"
    float_only: dict[str, frozenset[ScalarType] | None] = {"aten::add.out": frozenset({FLOAT})}
    cases = (
        (False, float_only),
        (True, {**float_only, "aten::logical_not.out": frozenset({ScalarType.Bool})}),
        (True, {**float_only, "aten::view_copy.out": None}),  # selected by name: every dtype
        (True, None),  # no resolution yet: compile the check in
    )
    for selected, op_dtypes in cases:
        steps = objects(target(), [ADD], op_dtypes=op_dtypes)
        [step] = [s for s in steps if str(s.source) == values]
        assert step.object.name == f"values.bool{int(selected)}.o"
        assert f"-DRT_BOOL_CONSTANTS={int(selected)}" in step.flags
    everything = by_source(objects(target(dtype_selective=False), []))
    assert everything[values].object.name == "values.o"


def test_only_a_folding_kernel_compiles_constant_folding_in() -> None:
    method = "src/runtime/executor/method.cpp"
    plain = by_source(objects(target(), [ADD]))
    folding = by_source(objects(target(), [ADD, PERMUTE]))
    assert FOLD_DEFINE not in plain[method].flags and FOLD_DEFINE in folding[method].flags
    # Fusion's code would rewrite nothing without a fused entry: a Linear's runner leaves it out.
    assert FUSE_DEFINE not in folding[method].flags
    assert plain[method].object != folding[method].object
    loader = "src/runtime/loader/program.cpp"
    assert plain[loader] == folding[loader]


def test_an_optimized_kernel_with_a_fused_entry_compiles_fusion_in_portable_s_does_not() -> None:
    # Note [Fusion at load] comes with folding, for the built-in library whose convolution
    # and matrix products have fused entries.
    method = "src/runtime/executor/method.cpp"
    for name in ("op_convolution.cpp", "op_addmm.cpp", "op_mm.cpp"):
        fast = PATHS.builtin_kernels_dir / "optimized" / name
        slow = PATHS.builtin_kernels_dir / "portable" / name
        fusing = by_source(objects(target(), [ADD, fast]))
        plain = by_source(objects(target(), [ADD, slow]))
        assert FOLD_DEFINE in fusing[method].flags and FUSE_DEFINE in fusing[method].flags
        assert FOLD_DEFINE not in plain[method].flags and FUSE_DEFINE not in plain[method].flags


def test_cats_are_placed_only_where_fusion_and_a_cat_are_linked() -> None:
    # Note [Cats in place]: a Linear's runner (fusion, no cat) leaves the code out, and so
    # does a runner with a cat but no fused entry.
    method = "src/runtime/executor/method.cpp"
    conv = PATHS.builtin_kernels_dir / "optimized" / "op_convolution.cpp"
    cat = PATHS.builtin_kernels_dir / "portable" / "op_cat.cpp"
    both = by_source(objects(target(), [ADD, conv, cat]))
    no_cat = by_source(objects(target(), [ADD, conv]))
    no_fusion = by_source(objects(target(), [ADD, cat]))
    assert PLACE_CATS_DEFINE in both[method].flags
    assert PLACE_CATS_DEFINE not in no_cat[method].flags
    assert PLACE_CATS_DEFINE not in no_fusion[method].flags


def test_activations_go_channels_last_only_with_the_optimized_convolution_and_our_kernels() -> None:
    # Note [Channels last]: the pass hands calls tensors in a layout another library's
    # kernel may not expect, so one kernel of a user's library leaves it out.
    method = "src/runtime/executor/method.cpp"
    conv = PATHS.builtin_kernels_dir / "optimized" / "op_convolution.cpp"
    add = PATHS.builtin_kernels_dir / "portable" / "op_add.cpp"
    mm = PATHS.builtin_kernels_dir / "optimized" / "op_mm.cpp"
    ours_only = by_source(objects(target(), [add, conv]))
    with_users = by_source(objects(target(), [ADD, conv]))
    no_conv = by_source(objects(target(), [add, mm]))
    assert CHANNELS_LAST_DEFINE in ours_only[method].flags
    assert CHANNELS_LAST_DEFINE not in with_users[method].flags
    assert CHANNELS_LAST_DEFINE not in no_conv[method].flags


def test_a_library_s_cflags_and_threads_reach_its_objects_only() -> None:
    optimized = Library(
        "optimized", Path("k/optimized/functions.yaml"), Path("k/optimized"), ("-O2",)
    )
    fast = Path("k/optimized/op_mm.cpp")
    threaded = target(dtype_selective=False, threads=4)
    steps = by_source(objects(threaded, [ADD, fast], libraries=[optimized]))
    declared = "-Ibuild/.libraries/optimized/op_mm"  # Note [Shared objects]
    assert steps[str(fast)].flags[-5:] == ("-Os", "-O2", "-DOPT_THREADS=4", "-Isrc", declared)
    assert "-O2" not in steps[str(ADD)].flags


def test_a_kernel_reads_its_library_s_declared_dtypes_the_same_in_every_target() -> None:
    portable = Library("portable", Path("kernels/portable/functions.yaml"), ADD.parent)
    declared = "-Ibuild/.libraries/portable/op_add"
    for made in (target("a"), target("b"), target("c", dtype_selective=False)):
        [step] = [s for s in objects(made, [ADD], libraries=[portable]) if s.source == ADD]
        assert declared in step.flags
    shared = [objects(target(n, False), [ADD], libraries=[portable]) for n in ("c", "d")]
    assert [s for s in shared[0] if s.source == ADD] == [s for s in shared[1] if s.source == ADD]


FAST_DIR = PATHS.builtin_kernels_dir / "optimized"
OPTIMIZED = Library("optimized", FAST_DIR / "functions.yaml", FAST_DIR, ("-O2",))
MM = FAST_DIR / "op_mm.cpp"
RELU = FAST_DIR / "op_relu.cpp"
CHECK = "src/runtime/startup/isa_check.cpp"


def test_the_instruction_set_reaches_the_optimized_objects_and_the_start_up_check() -> None:
    # Note [Instruction sets]: only the optimized library is compiled for it; a runner
    # with such objects links the check, compiled with the same -march.
    v4 = replace(HOST, isa="x86-64-v4")
    steps = by_source(objects(target(), [ADD, RELU], v4, libraries=[OPTIMIZED]))
    assert "-march=x86-64-v4" in steps[str(RELU)].flags
    assert not any("-march" in flag for flag in steps[str(ADD)].flags)
    assert not any("-march" in flag for flag in steps["src/runtime/loader/program.cpp"].flags)
    assert "-march=x86-64-v4" in steps[CHECK].flags
    kept = ours(PATHS, target(), v4).library_objects(list(steps.values()))
    assert CHECK not in {str(s.source) for s in kept}


def test_no_start_up_check_without_optimized_kernels_a_level_or_a_runner() -> None:
    v3 = replace(HOST, isa="x86-64-v3")
    for toolchain, kernels, made in (
        (v3, [ADD], target()),  # portable alone stays at the baseline
        (HOST, [ADD, RELU], target()),  # no isa: the cflags decide
        (replace(HOST, isa="x86-64"), [ADD, RELU], target()),  # the baseline runs anywhere
        (v3, [ADD, RELU], target(runner=False)),  # a library has no start
    ):
        steps = by_source(objects(made, kernels, toolchain, libraries=[OPTIMIZED]))
        assert CHECK not in steps
    context = ours(PATHS, target(), HOST).context
    assert runtime_sources(context, [Path(CHECK), RUNTIME[0]]) == [RUNTIME[0]]


def test_an_optimized_matrix_product_compiles_preparation_in() -> None:
    method = "src/runtime/executor/method.cpp"
    plain = by_source(objects(target(), [ADD, RELU], libraries=[OPTIMIZED]))
    batched = by_source(objects(target(), [ADD, FAST_DIR / "op_bmm.cpp"], libraries=[OPTIMIZED]))
    product = by_source(objects(target(), [ADD, MM], libraries=[OPTIMIZED]))
    portable = by_source(objects(target(), [PATHS.builtin_kernels_dir / "portable" / "op_mm.cpp"]))
    assert PREPARE_DEFINE not in plain[method].flags and FOLD_DEFINE not in plain[method].flags
    assert {PREPARE_DEFINE, FOLD_DEFINE} <= set(product[method].flags)
    # bmm prepares a constant operand but has no fused entry.
    assert {PREPARE_DEFINE, FOLD_DEFINE} <= set(batched[method].flags)
    assert FUSE_DEFINE not in batched[method].flags
    assert PREPARE_DEFINE not in portable[method].flags


def test_a_launcher_goes_before_the_compiler_and_keys_the_objects() -> None:
    cached = replace(HOST, launcher="ccache")
    plain = by_source(objects(target(), [ADD]))
    launched = by_source(objects(target(), [ADD], cached))
    loader = "src/runtime/loader/program.cpp"
    assert launched[loader].command()[:2] == ["ccache", "c++"]
    assert launched[loader].compiler == "c++"
    assert launched[loader].object != plain[loader].object


def test_the_library_leaves_out_the_runner_s_command_line() -> None:
    steps = objects(target(), [ADD])
    kept = {str(step.source) for step in ours(PATHS, target(), HOST).library_objects(steps)}
    assert "src/runtime/runner/main.cpp" not in kept and str(ADD) in kept


def test_a_shared_object_is_compiled_once() -> None:
    a = objects(target("a"), [ADD])
    b = objects(target("b"), [ADD])
    steps = unique_objects([*a, *b])
    assert len({step.object for step in steps}) == len(steps)
    assert len(steps) == len(a) + 2  # b's own kernel and registration
