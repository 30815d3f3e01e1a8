from __future__ import annotations

import shutil
from pathlib import Path

from selective_build.codegen.manifest import load_manifest
from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.selection import Selection
from selective_build.tasks.selection import target_selection
from tests.conftest import example_pte
from tests.test_build_folder_owner import selective_build


def test_every_source_is_unioned_with_its_provenance(tmp_path: Path) -> None:
    (tmp_path / "functions.yaml").write_text("[]\n")
    (tmp_path / "custom_ops.yaml").write_text(
        "- func: custom::scale.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  kernels: [{arg_meta: null, kernel_name: x::scale_out}]\n"
    )
    handed = Selection.from_operators([OperatorName.parse("aten::relu.out")], "someone")
    (tmp_path / "handed.yaml").write_text(handed.to_yaml())
    (tmp_path / "kernels").mkdir()
    manifest_path = tmp_path / "selective.toml"
    manifest_path.write_text(
        '[libraries.lib]\nfunctions = "functions.yaml"\nsources = "kernels"\n'
        "[targets.t]\n"
        'libraries = ["lib"]\n'
        'extra_ops = ["aten::sub.out"]\n'
        'op_dtypes = { "aten::add.out" = ["Long"], "aten::cat.out" = [] }\n'
        'op_schemas = ["custom_ops.yaml"]\n'
        'selections = ["handed.yaml"]\n'
    )
    target = load_manifest(manifest_path).targets["t"]
    model = tmp_path / "add_mul.ops.yaml"
    model.write_text(
        Selection.from_model(read_model_ops(example_pte("add_mul")), "add_mul.pte").to_yaml()
    )
    provenance = target_selection(target, "selective.toml", [model]).provenance().to_dict()
    assert provenance == {
        "aten::add.out": {
            "v1/4;": ["selective.toml:targets.t.op_dtypes"],
            "v1/6;0,1|6;0,1|6;0,1|6;0,1": ["add_mul.pte"],
        },
        "aten::cat.out": {"default": ["selective.toml:targets.t.op_dtypes"]},
        "aten::mul.out": {"v1/6;0,1|6;0,1|6;0,1|6;0,1": ["add_mul.pte"]},
        "aten::relu.out": {"default": ["someone"]},
        "aten::sub.out": {"default": ["selective.toml:targets.t.extra_ops"]},
        "custom::scale.out": {"default": [str(tmp_path / "custom_ops.yaml")]},
    }


GELU_MANIFEST = """
[models.a]
path = "a.pte"
[models.b]
path = "b.pte"

[targets.t]
models = ["a", "b"]
libraries = ["portable"]
"""


def gelu_program(dtype: ScalarType, path: Path) -> None:
    gelu = OperatorName.parse("aten::gelu.out")
    values = (Tensor(dtype, (2, 3)), "none", Tensor(dtype, (2, 3)))
    save_program([Method("forward", values, (0,), (2,), (KernelCall(gelu, (0, 1, 2, 2)),))], path)


def test_a_missing_kernel_names_only_the_models_needing_its_key(tmp_path: Path) -> None:
    """Two models call aten::gelu.out, a on Float, b on Long (which portable's gelu does not
    declare): the build stops naming model b alone, through the model, selection and codegen
    stages as a build runs them."""
    gelu_program(ScalarType.Float, tmp_path / "a.pte")
    gelu_program(ScalarType.Long, tmp_path / "b.pte")
    (tmp_path / "selective.toml").write_text(GELU_MANIFEST)
    result = selective_build(tmp_path, "codegen")
    assert result.returncode != 0
    assert (
        "target t: no kernel library implements 1 selected operator key(s): "
        "aten::gelu.out [dtype Long] (needed by b)\n"
    ) in result.stdout + result.stderr


def test_a_delegated_program_on_our_runtime_fails_the_build_naming_model_and_backend(
    tmp_path: Path,
) -> None:
    """A program lowered to XNNPACK by the real exporter, on a target of our runtime: the
    selection stage refuses it in one line, before anything compiles."""
    shutil.copy2(example_pte("xnn_partial"), tmp_path / "xnn_partial.pte")
    (tmp_path / "selective.toml").write_text(
        '[models.xnn_partial]\npath = "xnn_partial.pte"\n\n'
        '[targets.t]\nmodels = ["xnn_partial"]\nlibraries = ["portable"]\n'
    )
    result = selective_build(tmp_path, "build")
    assert result.returncode != 0
    assert result.stderr.splitlines()[-1] == (
        "error: target t: model xnn_partial delegates to backend XnnpackBackend, which our "
        'runtime cannot run: build it on ExecuTorch\'s runtime (runtime = "executorch" in '
        "the target)"
    )
    assert not (tmp_path / "build" / "t" / "selection.json").exists()
