"""A manifest in a folder of its own, outside the repository, with a kernel library in a
third folder: its outputs go to build/ beside it, and nothing is written anywhere else
(Note [Build folder] in tasks/layout.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.workspace import REPO, all_verified, copy_repository, doit

# Two dtype-selective targets sharing aten::add.out at different dtypes (Float, Long): each
# must compile the kernel against its own dtype header.
PROJECT_MANIFEST = """
[libraries.mine]
functions = "{library}/functions.yaml"
sources = "{library}"

[models.add_mul]
path = "models/add_mul.pte"
inputs = ["models/add_mul/in0.npy", "models/add_mul/in1.npy"]
outputs = ["models/add_mul/out0.npy"]

[models.int_ops]
path = "models/int_ops.pte"
inputs = ["models/int_ops/in0.npy", "models/int_ops/in1.npy"]
outputs = ["models/int_ops/out0.npy", "models/int_ops/out1.npy"]

[targets.add_mul]
models = ["add_mul"]
libraries = ["{libraries}"]
dtype_selective = true

[targets.int_ops]
models = ["int_ops"]
libraries = ["{libraries}"]
dtype_selective = true
"""


def make_project(root: Path, library: str, libraries: str) -> Path:
    """A project folder with two models and a manifest naming `libraries`."""
    project = root / "project"
    for model in ("add_mul", "int_ops"):
        folder = REPO / "examples" / "models" / model
        (project / "models" / model).mkdir(parents=True)
        shutil.copy2(folder / f"{model}.pte", project / "models" / f"{model}.pte")
        for data in folder.glob("*.npy"):
            shutil.copy2(data, project / "models" / model / data.name)
    (project / "selective.toml").write_text(
        PROJECT_MANIFEST.format(library=library, libraries=libraries)
    )
    return project


def snapshot(folder: Path) -> dict[str, int]:
    """Every file below `folder` but its build/ (and Python's bytecode caches), with its
    modification time."""
    return {
        str(path.relative_to(folder)): path.stat().st_mtime_ns
        for path in folder.rglob("*")
        if path.is_file()
        and path.relative_to(folder).parts[0] != "build"
        and "__pycache__" not in path.parts
    }


@pytest.mark.parametrize("library_spelling", ["absolute", "relative", "builtin"])
def test_project_outside_the_repository_builds_beside_its_manifest(
    tmp_path: Path, library_spelling: str
) -> None:
    repository = copy_repository(tmp_path / "repository")
    library = tmp_path / "kernels" / "mine"
    shutil.copytree(REPO / "kernels" / "portable", library)
    spelling = str(library) if library_spelling == "absolute" else "../kernels/mine"
    project = make_project(tmp_path, spelling, "mine")
    if library_spelling == "builtin":  # `portable` by name, no table
        manifest = project / "selective.toml"
        text = manifest.read_text().replace('"mine"', '"portable"')
        manifest.write_text(text[text.index("[models.") :])
    before = {name: snapshot(tmp_path / name) for name in ("repository", "kernels", "project")}

    result = doit(repository, "-n", "2", f"manifest={project / 'selective.toml'}", "build")

    assert result.returncode == 0, result.stdout + result.stderr
    for target in ("add_mul", "int_ops"):
        assert any(
            line.startswith(f"{target}: ") and all_verified(line, 1)
            for line in result.stdout.splitlines()
        ), result.stdout
        assert (project / "build" / target / "runner").is_file()
    # Nothing written outside the project's build/: not beside the kernels, not in the
    # repository (no build/ there at all), not elsewhere in the project.
    assert not (repository / "build").exists()
    after = {name: snapshot(tmp_path / name) for name in ("repository", "kernels", "project")}
    assert after == before
    # add_mul selects no kernel that takes Bool: the Bool constant check of the loader
    # (Note [Bool constants] in runtime/loader/values.cpp) is not compiled into its runner.
    assert b"constant Bool tensor" not in (project / "build" / "add_mul" / "runner").read_bytes()
    # Each target compiled the shared kernel against its own dtype header.
    for target in ("add_mul", "int_ops"):
        objects = project / "build" / target / "obj"
        if library_spelling == "builtin":  # the package's, below the working folder
            assert (objects / "selective_build" / "kernels" / "portable" / "op_add.o").is_file()
        else:
            assert list((objects / ".ext").glob("mine-*/op_add.o"))
