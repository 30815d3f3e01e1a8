"""A build folder apart from its sources (Note [Build folder apart from its sources]): no
manifest input inside it, and it holds neither the manifest nor the shipped sources."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.build_folder import check_build_folder, check_inputs_outside
from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest import load_manifest

MANIFEST = """
[models.m]
path = "models/m.pte"
inputs = ["models/in0.npy"]
outputs = ["{reference}"]

[libraries.mine]
functions = "mine/functions.yaml"
sources = "mine"

[targets.t]
models = ["m"]
libraries = ["mine"]
op_schemas = ["{schema}"]
"""


def _project(tmp_path: Path, reference: str = "models/out0.npy", schema: str = "s.yaml") -> Path:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "m.pte").write_bytes(b"")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "functions.yaml").write_text("[]\n")
    (tmp_path / "s.yaml").write_text("[]\n")
    for name in ("models/in0.npy", "models/out0.npy"):
        np.save(tmp_path / name, np.ones(2, np.float32))
    manifest = tmp_path / "selective.toml"
    manifest.write_text(MANIFEST.format(reference=reference, schema=schema))
    return manifest


def _refusal(manifest: Path, build: Path) -> str:
    with pytest.raises(InputError) as caught:
        check_inputs_outside(load_manifest(manifest), build)
    return str(caught.value)


def test_inputs_outside_the_build_folder_pass(tmp_path: Path) -> None:
    manifest = _project(tmp_path)
    check_inputs_outside(load_manifest(manifest), tmp_path / "build")


def test_a_reference_inside_the_build_folder_is_refused(tmp_path: Path) -> None:
    """Issue 22, item 3: verification would write the runner's output over it."""
    output = tmp_path / "build" / "t" / "verify" / "m" / "output0.npy"
    output.parent.mkdir(parents=True)
    np.save(output, np.ones(2, np.float32))
    manifest = _project(tmp_path, reference="build/t/verify/m/output0.npy")
    assert _refusal(manifest, tmp_path / "build") == (
        f"{manifest}: models.m.outputs[0]: {output} lies inside the build folder "
        f"{tmp_path / 'build'}, which the build writes and cleans (verification would "
        "overwrite a reference there); keep the build's inputs outside it"
    )


def test_a_link_into_the_build_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "s.yaml").write_text("[]\n")
    manifest = _project(tmp_path, schema="linked.yaml")
    os.symlink(tmp_path / "build" / "s.yaml", tmp_path / "linked.yaml")
    message = _refusal(manifest, tmp_path / "build")
    assert message.startswith(f"{manifest}: targets.t.op_schemas[0]: {tmp_path / 'linked.yaml'}")


def test_a_build_folder_that_is_a_models_folder_is_refused(tmp_path: Path) -> None:
    manifest = _project(tmp_path)
    message = _refusal(manifest, tmp_path / "models")
    assert message.startswith(f"{manifest}: models.m.path: {tmp_path / 'models' / 'm.pte'} lies")
    assert "\n" not in message


def test_a_build_folder_holding_a_librarys_folder_is_refused(tmp_path: Path) -> None:
    manifest = _project(tmp_path)
    # A link to the project: the library's files lie inside it once resolved.
    os.symlink(tmp_path, tmp_path / "alias")
    message = _refusal(manifest, tmp_path / "alias")
    assert message.startswith(f"{manifest}: models.m.path:")


def _folder_refusal(build: Path, manifest: Path, sources: list[Path]) -> str:
    with pytest.raises(InputError) as caught:
        check_build_folder(build, manifest, "build", sources)
    return str(caught.value)


@pytest.mark.parametrize("build", [".", "..", "./"])
def test_a_build_folder_holding_the_manifest_is_refused(tmp_path: Path, build: str) -> None:
    manifest = tmp_path / "project" / "selective.toml"
    folder = manifest.parent / build
    assert _folder_refusal(folder, manifest, []) == (
        f"{manifest}: build: the build folder {folder} holds the manifest selective.toml, "
        "and a build writes and cleans everything in its folder; give the build a folder of "
        "its own (without the key, build/ beside the manifest)"
    )


def test_a_build_folder_overlapping_the_shipped_sources_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "project" / "selective.toml"
    runtime = tmp_path / "shipped" / "runtime"
    for build in (tmp_path / "shipped", runtime, runtime / "build"):
        message = _folder_refusal(build, manifest, [runtime])
        assert message.startswith(
            f"{manifest}: build: the build folder {build} overlaps the sources {runtime}, and"
        )


def test_a_build_folder_linked_to_the_manifests_folder_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "selective.toml"
    os.symlink(tmp_path, tmp_path / "out")
    assert "holds the manifest" in _folder_refusal(tmp_path / "out", manifest, [])


def test_a_build_folder_of_its_own_passes(tmp_path: Path) -> None:
    manifest = tmp_path / "selective.toml"
    for build in ("build", "out/build", "../elsewhere"):
        check_build_folder(tmp_path / build, manifest, "build", [tmp_path / "runtime"])
