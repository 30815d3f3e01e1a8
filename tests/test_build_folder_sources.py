"""Issue 22, item 3: a reference is never overwritten. A manifest input inside the build
folder, or a build folder holding the manifest or the sources, stops the build in one line
before anything is written (Note [Build folder apart from its sources])."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from tests.test_build_folder_owner import MANIFEST, selective_build, snapshot
from tests.workspace import REPO


def _project(tmp_path: Path, key: str = "", target: str = "a") -> Path:
    shutil.copytree(REPO / "examples" / "models" / "add_mul", tmp_path / "add_mul")
    (tmp_path / "a.toml").write_text(MANIFEST.format(key=key, target=target))
    return tmp_path


def test_a_reference_inside_the_build_folder_is_refused(tmp_path: Path) -> None:
    """Before: verification wrote the runner's output over the reference and passed."""
    project = _project(tmp_path)
    reference = project / "build" / "a" / "verify" / "add_mul" / "output0.npy"
    reference.parent.mkdir(parents=True)
    np.save(reference, np.full((2, 2), 7.0, np.float32))  # not what add_mul computes
    manifest = project / "a.toml"
    manifest.write_text(
        manifest.read_text().replace("add_mul/out0.npy", "build/a/verify/add_mul/output0.npy")
    )
    before = snapshot(project)
    result = selective_build(project, "manifest=a.toml", "build")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "error: a.toml: models.add_mul.outputs[0]: build/a/verify/add_mul/output0.npy lies "
        "inside the build folder build, which the build writes and cleans (verification "
        "would overwrite a reference there); keep the build's inputs outside it\n"
    )
    assert snapshot(project) == before


def test_a_build_folder_holding_the_manifest_is_refused(tmp_path: Path) -> None:
    """`build = "."` with a target named like a source folder: its outputs would land in
    add_mul/ itself."""
    project = _project(tmp_path, key='build = "."', target="add_mul")
    before = snapshot(project)
    for command in ("build", "clean", "list"):
        result = selective_build(project, "manifest=a.toml", command)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == (
            "error: a.toml: build: the build folder . holds the manifest a.toml, and a build "
            "writes and cleans everything in its folder; give the build a folder of its own "
            "(without the key, build/ beside the manifest)\n"
        )
    assert snapshot(project) == before


def test_a_models_folder_as_the_build_folder_is_refused(tmp_path: Path) -> None:
    project = _project(tmp_path)
    before = snapshot(project)
    result = selective_build(project, "manifest=a.toml", "build=add_mul", "build")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "error: a.toml: models.add_mul.path: add_mul/add_mul.pte lies inside the build folder "
        "add_mul, which the build writes and cleans (verification would overwrite a "
        "reference there); keep the build's inputs outside it\n"
    )
    assert snapshot(project) == before
