"""The size stage's "selected by": who brought each kernel in, models named as the manifest
names them. (The stage as a whole runs in every real build: tests/test_size_report.py and
tests/test_library_only.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

from selective_build.codegen.manifest import load_manifest
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.provenance import Provenance
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.resolution_file import ResolvedKernel
from selective_build.codegen.selection import Selection
from selective_build.codegen.size.stage import selected_by
from tests.conftest import example_pte

MANIFEST = """
[models.first]
path = "one/model.pte"
[models.second]
path = "two/model.pte"

[targets.t]
models = ["first", "second"]
libraries = ["portable"]
extra_ops = ["aten::add.out"]

[targets.everything]
libraries = ["portable"]
include_all_operators = true
"""


def kernel(op: str) -> ResolvedKernel:
    name = OperatorName.parse(op)
    return ResolvedKernel(name, KernelKey.default(), "portable::k", "portable", Path("op.cpp"))


def test_models_sharing_a_file_name_are_told_apart(tmp_path: Path) -> None:
    """Two models whose files have one name (add_mul's and mlp's programs, each saved as
    model.pte): each kernel is selected by the model that calls it, named as the manifest
    names it, as the model_ops stage records it (tasks/models.py)."""
    for folder, program in (("one", "add_mul"), ("two", "mlp")):
        (tmp_path / folder).mkdir()
        shutil.copy(example_pte(program), tmp_path / folder / "model.pte")
    (tmp_path / "selective.toml").write_text(MANIFEST)
    manifest = load_manifest(tmp_path / "selective.toml")
    target, everything = manifest.targets["t"], manifest.targets["everything"]
    extra = "selective.toml:targets.t.extra_ops"
    selection = Selection.from_operators(target.extra_ops, extra)
    for name in target.models:
        selection |= Selection.from_model(read_model_ops(manifest.models[name].path), name)
    provenance = selection.provenance()
    assert selected_by(kernel("aten::add.out"), provenance, target) == ("first", extra)
    assert selected_by(kernel("aten::mul.out"), provenance, target) == ("first",)
    assert selected_by(kernel("aten::addmm.out"), provenance, target) == ("second",)
    # An include-all target's kernels no source asked for.
    nobody = Provenance({})
    assert selected_by(kernel("aten::add.out"), nobody, everything) == ("include_all_operators",)
    assert selected_by(kernel("aten::add.out"), nobody, target) == ()
