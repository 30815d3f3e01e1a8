from __future__ import annotations

from pathlib import Path

from codegen.manifest import load_manifest
from codegen.model import OperatorName
from codegen.pte import read_model_ops
from codegen.selection import Selection
from tasks.selection import target_selection
from tests.conftest import example_pte


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
    provenance = target_selection(target, "selective.toml", [model]).provenance()
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
