"""The installed command, end to end: `pip install` of the repository (not editable) into a
fresh virtualenv, the source copy deleted, then `selective-build` in a project folder of its
own, with `portable` named as a built-in library and a user kernel library in a third
folder. Two dtype-selective targets share aten::add.out at different dtypes (Float, Long);
both verify; nothing is written outside the project's build/; a second build is a no-op;
examples/app builds with CMake against a package and runs the model."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_own_project import make_project, snapshot
from tests.test_package import check_outputs, run_app
from tests.workspace import REPO, all_verified, copy_repository

# The user's own library: aten::mul.out (a copy of portable's kernel), ahead of portable in
# precedence, so each target takes mul from it and add from the built-in library.
# A copy of the built-in op_mul.cpp reads its entry's dtypes (Note [Declared dtypes]); it
# serves mul.out alone (its mul.Scalar_out, with no entry, declares none and is not registered).
USER_FUNCTIONS = """\
- func: mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
  dtypes: [Byte, Char, Short, Int, Long, Half, Float, Double, BFloat16, Bool]
  kernels:
    - arg_meta: null
      kernel_name: portable::mul_out
"""


def run(command: list[str], cwd: Path, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the project installed from a copy that is then deleted: its
    selective-build command."""
    root = tmp_path_factory.mktemp("installed")
    source = copy_repository(root / "source")
    venv = root / "venv"
    created = run([sys.executable, "-m", "venv", str(venv)], root, timeout=600)
    assert created.returncode == 0, created.stderr
    # pip's cache makes this quick after the first time; never editable.
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(source)]
    result = run(pip, root)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.rmtree(source)  # the installed copy must need nothing from the checkout
    return venv / "bin" / "selective-build"


def test_selective_build_in_a_project_of_its_own(installed: Path, tmp_path: Path) -> None:
    library = tmp_path / "mykernels"
    library.mkdir()
    (library / "functions.yaml").write_text(USER_FUNCTIONS)
    shutil.copy2(REPO / "kernels" / "portable" / "op_mul.cpp", library / "op_mul.cpp")
    project = make_project(tmp_path, "../mykernels", "mine")
    manifest = project / "selective.toml"
    manifest.write_text(manifest.read_text().replace('["mine"]', '["mine", "portable"]'))
    before = {name: snapshot(tmp_path / name) for name in ("mykernels", "project")}
    site = installed.parent.parent / "lib"
    shipped = {path for path in site.rglob("*") if path.is_file()}

    result = run([str(installed), "-n", "2"], project)

    assert result.returncode == 0, result.stdout + result.stderr
    for target in ("add_mul", "int_ops"):
        assert any(
            line.startswith(f"{target}: ") and all_verified(line, 1)
            for line in result.stdout.splitlines()
        ), result.stdout
        # mul from the user's library, add from the built-in one, each built for the target.
        objects = project / "build" / target / "obj" / ".ext"
        assert list(objects.glob("mykernels-*/op_mul.o")), sorted(objects.rglob("*.o"))
        assert list(objects.glob("portable-*/op_add.o")), sorted(objects.rglob("*.o"))
    # Nothing written anywhere but the project's build/: not in the user's library, not in
    # the installed package.
    after = {name: snapshot(tmp_path / name) for name in ("mykernels", "project")}
    assert after == before
    written = {p for p in site.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert written - shipped == set()

    again = run([str(installed)], project)
    assert again.returncode == 0 and again.stdout.startswith("nothing to do: "), again.stdout

    listed = run([str(installed), "list"], project)
    assert listed.returncode == 0 and "package " in listed.stdout, listed.stdout + listed.stderr

    # examples/app against the project's package, with CMake.
    app = tmp_path / "app"
    package = project / "build" / "add_mul" / "package"
    configure = ["cmake", "-S", str(REPO / "examples" / "app"), "-B", str(app)]
    configured = run([*configure, f"-DCMAKE_PREFIX_PATH={package}"], tmp_path, timeout=600)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    built = run(["cmake", "--build", str(app)], tmp_path, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    check_outputs(run_app(app / "app", tmp_path))


def test_list_in_a_fresh_folder_writes_nothing(installed: Path, tmp_path: Path) -> None:
    project = make_project(tmp_path, "unused", "portable")
    text = (project / "selective.toml").read_text()
    (project / "selective.toml").write_text(text[text.index("[models.") :])
    for command in (["list"], ["info", "build"], ["help"]):
        result = run([str(installed), *command], project, timeout=300)
        # `info` exits 1 for a task that is not up to date.
        assert result.returncode in (0, 1) and not result.stderr, result.stdout + result.stderr
    assert not (project / "build").exists()
    assert not [name for name in os.listdir(project) if name not in ("models", "selective.toml")]
