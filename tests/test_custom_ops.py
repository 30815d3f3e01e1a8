"""examples/custom_ops: a user's kernel library outside kernels/ and a model from the real
exporter calling its torch.library operator (the end-to-end build of the default manifest
runs and verifies it: tests/test_end_to_end.py)."""

from __future__ import annotations

from pathlib import Path

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.manifest import load_manifest
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.unboxing import unboxing
from tests.workspace import REPO, copy_repository, doit

EXAMPLE = REPO / "examples" / "custom_ops"
MUL3 = OperatorName.parse("my_ops::mul3.out")
AFFINE = OperatorName.parse("my_ops::affine.out")


def test_the_library_declares_the_typed_kernels_of_its_schemas() -> None:
    library = read_kernel_library("my_ops", EXAMPLE / "custom_ops.yaml", EXAMPLE)
    expected = {
        MUL3: (
            "my_ops::mul3_out",
            "my_ops::mul3.out(Tensor input, *, Tensor(a!) out) -> Tensor(a!)",
            "rt::Tensor& mul3_out(rt::KernelContext& context, const rt::Tensor& input, "
            "rt::Tensor& out)",
        ),
        AFFINE: (
            "my_ops::affine_out",
            "my_ops::affine.out(Tensor input, float scale, float bias, *, Tensor(a!) out) "
            "-> Tensor(a!)",
            "rt::Tensor& affine_out(rt::KernelContext& context, const rt::Tensor& input, "
            "double scale, double bias, rt::Tensor& out)",
        ),
    }
    assert {kernel.op for kernel in library.kernels} == set(expected)
    for kernel in library.kernels:
        function, schema, declaration = expected[kernel.op]
        assert (kernel.function, kernel.schema.text()) == (function, schema)
        assert kernel.source == EXAMPLE / f"op_{kernel.op.name}.cpp"
        # The typed signature comes from the schema alone; the source defines exactly it.
        assert unboxing(kernel.schema, kernel.function).declaration == declaration
        source = kernel.source.read_text()
        assert "namespace my_ops {" in source
        assert " ".join(f"{declaration} {{".split()) in " ".join(source.split())


def test_the_exported_program_calls_the_custom_operators() -> None:
    ops = read_model_ops(EXAMPLE / "model" / "custom_ops.pte")
    # The input, the out and the returned out: Float, rank 3 (the doubles add no entry).
    float_3d = KernelKey.parse("v1/6;0,1,2|6;0,1,2|6;0,1,2")
    assert ops.operators[MUL3] == ops.operators[AFFINE] == frozenset({float_3d})
    assert set(ops.operators) == {
        MUL3,
        AFFINE,
        OperatorName.parse("aten::add.out"),
        OperatorName.parse("aten::mul.out"),
    }
    assert ops.delegates == ()


def test_the_default_manifest_builds_it_with_its_library() -> None:
    manifest = load_manifest(REPO / "selective.toml")
    library = manifest.libraries["my_ops"]
    assert (library.functions, library.sources) == (EXAMPLE / "custom_ops.yaml", EXAMPLE)
    target = manifest.targets["custom_ops"]
    assert list(target.models) == ["custom_ops"] and target.dtype_selective
    assert list(target.libraries) == ["my_ops", "portable"]


def test_a_target_without_the_library_fails_codegen_naming_the_operator(tmp_path: Path) -> None:
    workdir = copy_repository(tmp_path)
    manifest = workdir / "selective.toml"
    text = manifest.read_text()
    listed = 'libraries = ["my_ops", "portable"]'
    assert text.count(listed) == 1
    manifest.write_text(text.replace(listed, 'libraries = ["portable"]'))
    result = doit(workdir, "codegen:custom_ops")
    assert result.returncode != 0
    errors = [
        line for line in result.stdout.splitlines() + result.stderr.splitlines() if "error" in line
    ]
    assert len(errors) == 1, result.stdout + result.stderr
    assert "my_ops::mul3.out" in errors[0] and "my_ops::affine.out" in errors[0], errors
    assert "(needed by custom_ops)" in errors[0], errors
    assert "Traceback" not in result.stderr


def test_a_kernel_named_like_the_generated_registry_fails_codegen_in_one_line(
    tmp_path: Path,
) -> None:
    """Issue 22, item 9: the link failed before, in raw linker output."""
    workdir = copy_repository(tmp_path)
    functions = workdir / "examples" / "custom_ops" / "custom_ops.yaml"
    text = functions.read_text()
    assert text.count("kernel_name: my_ops::mul3_out") == 1
    functions.write_text(text.replace("my_ops::mul3_out", "rt::selected_kernels"))
    result = doit(workdir, "codegen:custom_ops")
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: examples/custom_ops/custom_ops.yaml: entry 0: my_ops::mul3.out: kernel_name "
        "'rt::selected_kernels' is in namespace rt, which belongs to the runtime and the code "
        "generated for each build (the registry is rt::selected_kernels): a kernel there "
        "collides with its names; put it in a namespace of the library's own"
    ], result.stdout + result.stderr
    assert "Traceback" not in result.stderr
