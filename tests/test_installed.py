"""The installed command, end to end: `pip install` of the repository (not editable) into a
fresh virtualenv, the source copy deleted, then `selective-build` in a project folder of its
own, with `portable` named as a built-in library and a user kernel library in a third
folder. Two dtype-selective targets share aten::add.out at different dtypes (Float, Long);
both verify, one from an .npz archive of its references; nothing is written outside the
project's build/; a second build is a no-op, also from a subfolder; an app's own CMake
project builds the target through the installed CMake module and runs the model. The
command's help, version and one-line mistakes (caught before anything compiles, with the
fix); an aarch64 target whose toolchain is a CMake toolchain file, driven by an app's
cross-compiling CMake project, verified and run under qemu."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
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
def installation(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A fresh virtualenv with the project installed from a copy that is then deleted, and
    what pip printed (verbose: the build backend's warnings included)."""
    root = tmp_path_factory.mktemp("installed")
    source = copy_repository(root / "source")
    venv = root / "venv"
    created = run([sys.executable, "-m", "venv", str(venv)], root, timeout=600)
    assert created.returncode == 0, created.stderr
    # pip's cache makes this quick after the first time; never editable.
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--verbose", str(source)]
    result = run(pip, root)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.rmtree(source)  # the installed copy must need nothing from the checkout
    return venv, result.stdout + result.stderr


@pytest.fixture(scope="module")
def installed(installation: tuple[Path, str]) -> Path:
    """The installed selective-build command."""
    return installation[0] / "bin" / "selective-build"


def test_the_install_adds_one_top_level_package_and_warns_of_nothing(
    installation: tuple[Path, str],
) -> None:
    venv, printed = installation
    [record] = venv.glob("lib/python*/site-packages/selective_build-*.dist-info/RECORD")
    tops = {line.split("/")[0] for line in record.read_text().splitlines()}
    ours = {top for top in tops if not top.startswith(("selective_build-", "..", "__pycache__"))}
    # `..` is the CMake module below the environment's prefix (share/cmake/SelectiveBuild).
    assert ours == {"selective_build"}, sorted(tops)
    # What setuptools says of a package's layout or data (pip's own index notes aside).
    warnings = ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "would be ignored")
    assert not [warning for warning in warnings if warning in printed], printed
    assert any(line.startswith("../../../share/cmake/") for line in record.read_text().split())


# The app's own CMake project: it builds the target through the installed module.
APP_PROJECT = """
cmake_minimum_required(VERSION 3.16)
project(uses_selective_build CXX)
find_package(SelectiveBuild REQUIRED)
selective_build(TARGET add_mul MANIFEST "{manifest}" BUILD_DIR "{build}")
add_executable(app main.cpp)
target_link_libraries(app PRIVATE selective::add_mul)
"""


def archive(project: Path, model: str) -> None:
    """`model`'s references moved into one .npz archive (in0.., out0..)."""
    folder = project / "models" / model
    arrays = {path.stem: np.load(path) for path in sorted(folder.glob("*.npy"))}
    np.savez(project / "models" / f"{model}.npz", **arrays)
    shutil.rmtree(folder)


def with_archive(project: Path, model: str) -> None:
    """`archive`, and the manifest naming the archive for both the model's inputs and its
    outputs."""
    archive(project, model)
    manifest = project / "selective.toml"
    text = manifest.read_text()
    lines = [line for line in text.splitlines() if f"models/{model}/" not in line]
    at = lines.index(f'path = "models/{model}.pte"') + 1
    lines[at:at] = [f'inputs = "models/{model}.npz"', f'outputs = "models/{model}.npz"']
    manifest.write_text("\n".join(lines) + "\n")


def cmake(command: list[str], cwd: Path, path: Path) -> subprocess.CompletedProcess[str]:
    """CMake, with the virtualenv's bin/ first on PATH (as an activated one is): what lets
    find_package find the module installed below it."""
    environment = {**os.environ, "PATH": f"{path}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=1800, env=environment
    )


def test_selective_build_in_a_project_of_its_own(installed: Path, tmp_path: Path) -> None:
    library = tmp_path / "mykernels"
    library.mkdir()
    (library / "functions.yaml").write_text(USER_FUNCTIONS)
    shutil.copy2(REPO / "kernels" / "portable" / "op_mul.cpp", library / "op_mul.cpp")
    project = make_project(tmp_path, "../mykernels", "mine")
    manifest = project / "selective.toml"
    manifest.write_text(manifest.read_text().replace('["mine"]', '["mine", "portable"]'))
    with_archive(project, "int_ops")
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
    # From a folder below the manifest: found there, and the same build (Note [Manifest
    # search] in tasks/cli.py).
    below = run([str(installed)], project / "models")
    assert below.returncode == 0 and below.stdout.startswith("nothing to do: "), below.stdout

    listed = run([str(installed), "list"], project)
    assert listed.returncode == 0 and "package " in listed.stdout, listed.stdout + listed.stderr
    unknown = run([str(installed), "info", "link:nosuch"], project)
    assert unknown.stderr == (
        "ERROR: 'link:nosuch' is not a task (the targets are add_mul, int_ops;"
        " see `selective-build list --all`)\n"
    )
    assert "link:add_mul" in run([str(installed), "list", "--all"], project).stdout

    help = run([str(project / "build" / "add_mul" / "runner"), "--help"], project)
    assert (help.returncode, help.stderr) == (0, "")
    assert help.stdout == (
        "runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR]"
        " [--iterations N]\n"
    )

    # An app's CMake project, in a folder of its own, builds the target through the
    # installed module (here up to date: the project's own build folder) and links it.
    app = tmp_path / "app"
    app.mkdir()
    shutil.copy2(REPO / "examples" / "app" / "main.cpp", app / "main.cpp")
    build = project / "build"
    (app / "CMakeLists.txt").write_text(APP_PROJECT.format(manifest=manifest, build=build))
    configure = ["cmake", "-S", str(app), "-B", str(app / "out")]
    configured = cmake(configure, tmp_path, installed.parent)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    built = cmake(["cmake", "--build", str(app / "out")], tmp_path, installed.parent)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "selective-build target:add_mul" in built.stdout  # the build step ran it again
    check_outputs(run_app(app / "out" / "app", tmp_path))


def test_help_version_and_a_missing_manifest(installed: Path, tmp_path: Path) -> None:
    for flag in ("--help", "-h", "help"):
        result = run([str(installed), flag], tmp_path)
        assert result.returncode == 0 and not result.stderr, result.stderr
        text = result.stdout
        assert text.startswith("selective-build 0.1.0: ")
        for needed in ("selective.toml", "manifest=PATH", "build=DIR", "target:NAME", "verify"):
            assert needed in text, needed
        assert "selective-build tabcompletion" in text  # doit's commands are still there
    version = run([str(installed), "--version"], tmp_path)
    assert version.stdout == "selective-build 0.1.0 (doit 0.37.0)\n", version.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    missing = run([str(installed)], empty)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        f"error: no selective.toml in {empty} or any folder above it: write one there,"
        " or name one with manifest=PATH\n"
    )


# Each mistake, with the one line that names it and the fix; none compiles anything.
MISTAKES = [
    (
        ('libraries = ["portable"]', 'libraries = ["portabel"]'),
        "selective.toml: targets.add_mul.libraries[0]: unknown library 'portabel'"
        " (defined: portable; built in: optimized, portable, prim, quantized);"
        " did you mean 'portable'?",
    ),
    (
        ("dtype_selective = true", 'extra_ops = ["aten::sbu.out"]'),
        "selective.toml: targets.add_mul.extra_ops[0]: aten::sbu.out is implemented by none"
        " of the target's libraries (portable); did you mean 'aten::sub.out'?",
    ),
    (
        ("dtype_selective = true", 'op_dtypes = { "aten::mul.out" = ["float32"] }'),
        "selective.toml: targets.add_mul.op_dtypes.'aten::mul.out': unknown dtype 'float32';"
        " did you mean 'Float'? (known: Byte, ",
    ),
    (
        ('inputs = ["models/add_mul/in0.npy", ', "inputs = ["),
        "selective.toml: models.add_mul.inputs: 1 file for the 2 inputs of method 'forward'"
        " of add_mul.pte",
    ),
    (
        ('outputs = ["models/add_mul/out0.npy"]', 'outputs = "models/add_mul.npz"'),
        "selective.toml: models.add_mul.outputs: add_mul.npz holds 0 output arrays for the"
        " 1 output of method 'forward' of add_mul.pte",
    ),
    (
        ('method = "forward"', 'method = "froward"'),
        "selective.toml: models.add_mul.method: add_mul.pte has no method 'froward'"
        " (its methods: forward); did you mean 'forward'?",
    ),
]


@pytest.mark.parametrize(("edit", "line"), MISTAKES)
def test_a_mistake_is_caught_before_compiling_with_the_fix(
    installed: Path, tmp_path: Path, edit: tuple[str, str], line: str
) -> None:
    project = make_project(tmp_path, "unused", "portable")
    text = (project / "selective.toml").read_text()
    text = text[text.index("[models.") :].replace(
        'path = "models/add_mul.pte"', 'path = "models/add_mul.pte"\nmethod = "forward"'
    )
    assert edit[0] in text
    (project / "selective.toml").write_text(text.replace(*edit, 1))
    folder = project / "models" / "add_mul"
    np.savez(project / "models" / "add_mul.npz", in0=np.load(folder / "in0.npy"))

    result = run([str(installed), "target:add_mul"], project)

    assert result.returncode != 0
    errors = [text for text in result.stderr.splitlines() if text.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {line}"), result.stderr
    assert "Traceback" not in result.stderr
    assert not list((project / "build").rglob("*.o"))  # found before anything compiled


# The aarch64 cross compiler and qemu-user as a CMake toolchain file, as a project has one.
AARCH64_TOOLCHAIN = """
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-z,max-page-size=4096")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
"""
CROSS_MANIFEST = """
[toolchains.arm64]
cmake_toolchain_file = "aarch64.cmake"

[models.add_mul]
path = "models/add_mul.pte"
inputs = "models/add_mul.npz"
outputs = "models/add_mul.npz"

[targets.add_mul]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
toolchain = "arm64"
"""


def test_a_cmake_toolchain_file_drives_a_cross_target(installed: Path, tmp_path: Path) -> None:
    """The app's project cross-compiles with its toolchain file; the manifest's toolchain
    is that same file (compiler, flags and emulator read by CMake): the target is built
    for aarch64 and verified under qemu, and the app links its package and runs under
    qemu too."""
    project = make_project(tmp_path, "unused", "portable")
    (project / "aarch64.cmake").write_text(AARCH64_TOOLCHAIN)
    (project / "selective.toml").write_text(CROSS_MANIFEST)
    archive(project, "add_mul")
    app = tmp_path / "app"
    app.mkdir()
    shutil.copy2(REPO / "examples" / "app" / "main.cpp", app / "main.cpp")
    build = tmp_path / "selective-out"
    text = APP_PROJECT.format(manifest=project / "selective.toml", build=build)
    (app / "CMakeLists.txt").write_text(text)
    toolchain = f"-DCMAKE_TOOLCHAIN_FILE={project / 'aarch64.cmake'}"
    configure = ["cmake", "-S", str(app), "-B", str(app / "out"), toolchain]

    configured = cmake(configure, tmp_path, installed.parent)

    assert configured.returncode == 0, configured.stdout + configured.stderr
    built = cmake(["cmake", "--build", str(app / "out")], tmp_path, installed.parent)
    assert built.returncode == 0, built.stdout + built.stderr
    runner = build / "add_mul" / "runner"
    assert runner.read_bytes()[18:20] == (183).to_bytes(2, "little")  # EM_AARCH64
    verification = (build / "add_mul" / "verify.json").read_text()
    assert '"status": "ok"' in verification, verification
    emulator = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
    check_outputs(run_app(app / "out" / "app", tmp_path, emulator=emulator))


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
