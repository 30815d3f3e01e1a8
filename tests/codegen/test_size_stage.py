"""The size stage's mapping from the selection's sources to the report's "selected by".
(The stage as a whole runs in every real build: tests/test_size_report.py and
tests/test_library_only.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

from codegen.manifest import load_manifest
from codegen.model import KernelKey, OperatorName
from codegen.provenance import Provenance
from codegen.resolution_file import ResolvedKernel
from codegen.size.inputs import model_files
from codegen.size.stage import selected_by
from tests.conftest import example_pte

ADD = OperatorName.parse("aten::add.out")
KERNEL = ResolvedKernel(
    ADD, KernelKey.default(), "portable::add_out", "portable", Path("op_add.cpp")
)
MANIFEST = """
[models.first]
path = "one/add_mul.pte"
[models.second]
path = "two/add_mul.pte"

[targets.t]
models = ["first", "second"]
libraries = ["portable"]

[targets.everything]
libraries = ["portable"]
include_all_operators = true
"""


def test_models_are_named_as_the_manifest_names_them(tmp_path: Path) -> None:
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        shutil.copy(example_pte("add_mul"), tmp_path / folder / "add_mul.pte")
    (tmp_path / "selective.toml").write_text(MANIFEST)
    manifest = load_manifest(tmp_path / "selective.toml")
    target, everything = manifest.targets["t"], manifest.targets["everything"]
    files = model_files(target, manifest.models)
    assert files == {"add_mul.pte": ("first", "second")}
    extra = "selective.toml:targets.t.extra_ops"
    provenance = Provenance({ADD: {KernelKey.default(): frozenset({"add_mul.pte", extra})}})
    assert selected_by(KERNEL, provenance, files, target) == ("first", "second", extra)
    # An include-all target's kernels no source asked for.
    nobody = Provenance({})
    assert selected_by(KERNEL, nobody, {}, everything) == ("include_all_operators",)
    assert selected_by(KERNEL, nobody, files, target) == ()
