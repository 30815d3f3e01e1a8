"""Two manifests in one folder never share a build folder: the first run records which
manifest build/ belongs to, and another manifest resolving to it stops in one line before
it reads, writes or deletes anything there; a top-level `build = "DIR"` key gives it its
own (Note [Build folder] in tasks/layout.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workspace import REPO

MANIFEST = """{key}
[models.add_mul]
path = "add_mul/add_mul.pte"
inputs = ["add_mul/in0.npy", "add_mul/in1.npy"]
outputs = ["add_mul/out0.npy"]

[targets.{target}]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
"""

# The installed command's entry point, run from the project folder as a user runs it.
SELECTIVE_BUILD = "import sys; from selective_build.tasks.command import main; sys.exit(main())"


def selective_build(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SELECTIVE_BUILD, *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file below `folder`: its modification time and bytes."""
    return {
        str(path.relative_to(folder)): (path.stat().st_mtime_ns, path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with one model and two manifests, a.toml built (it owns build/)."""
    project = tmp_path_factory.mktemp("two-manifests")
    shutil.copytree(REPO / "examples" / "models" / "add_mul", project / "add_mul")
    (project / "a.toml").write_text(MANIFEST.format(key="", target="a"))
    (project / "b.toml").write_text(MANIFEST.format(key="", target="b"))
    result = selective_build(project, "manifest=a.toml", "build")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (project / "build" / ".manifest").read_text() == "../a.toml\n"
    return project


REFUSED = (
    "error: build/ is the build folder of a.toml (build/.manifest): b.toml cannot use it too;"
    ' give b.toml a folder of its own with a top-level key build = "DIR" or with build=DIR on'
    " the command line\n"
)


@pytest.mark.parametrize(
    "command",
    [["build"], ["clean"], ["list"], ["info", "selection:b"], ["forget", "selection:b"]],
    ids=lambda words: " ".join(words),
)
def test_a_second_manifest_in_the_folder_stops_before_touching_build(
    project: Path, command: list[str]
) -> None:
    before = snapshot(project / "build")
    result = selective_build(project, "manifest=b.toml", *command)
    assert (result.returncode, result.stderr, result.stdout) == (2, REFUSED, "")
    assert snapshot(project / "build") == before


def test_the_command_line_variable_overrides_the_key(project: Path) -> None:
    """`build=DIR` wins over the manifest's key: pointed at a.toml's folder, it is refused."""
    manifest = project / "keyed.toml"
    manifest.write_text(MANIFEST.format(key='build = "elsewhere"', target="b"))
    result = selective_build(project, "manifest=keyed.toml", "build=build", "list")
    assert result.returncode == 2
    assert result.stderr.startswith("error: build/ is the build folder of a.toml")
    assert not (project / "elsewhere").exists()


def test_with_a_build_key_the_two_manifests_build_and_clean_apart(tmp_path: Path) -> None:
    project = tmp_path
    shutil.copytree(REPO / "examples" / "models" / "add_mul", project / "add_mul")
    (project / "a.toml").write_text(MANIFEST.format(key="", target="a"))
    (project / "b.toml").write_text(MANIFEST.format(key='build = "build-b"', target="b"))
    for manifest in ("a.toml", "b.toml"):
        result = selective_build(project, f"manifest={manifest}", "build")
        assert result.returncode == 0, result.stdout + result.stderr
    assert (project / "build" / "a" / "runner").is_file()
    assert (project / "build-b" / "b" / "runner").is_file()
    assert (project / "build-b" / ".manifest").read_text() == "../b.toml\n"
    assert not (project / "build" / "b").exists() and not (project / "build-b" / "a").exists()

    a_files = snapshot(project / "build")
    result = selective_build(project, "manifest=b.toml", "clean")
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (project / "build-b" / "b" / "runner").exists()
    assert snapshot(project / "build") == a_files

    result = selective_build(project, "manifest=b.toml", "build")
    assert result.returncode == 0, result.stdout + result.stderr
    b_files = snapshot(project / "build-b")
    result = selective_build(project, "manifest=a.toml", "clean")
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (project / "build" / "a" / "runner").exists()
    assert snapshot(project / "build-b") == b_files


def test_a_folder_whose_manifest_is_gone_goes_to_the_next_one(tmp_path: Path) -> None:
    """A manifest renamed or deleted leaves its build folder to the next one that uses it."""
    shutil.copytree(REPO / "examples" / "models" / "add_mul", tmp_path / "add_mul")
    (tmp_path / "b.toml").write_text(MANIFEST.format(key="", target="b"))
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / ".manifest").write_text("../gone.toml\n")
    result = selective_build(tmp_path, "manifest=b.toml", "list")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("3", "build: expected a string (a folder), got an integer"),
        ('""', "build: an empty folder name (leave the key out for build/)"),
        ("[]", "build: expected a string (a folder), got an array"),
    ],
)
def test_a_bad_build_key_is_one_line(tmp_path: Path, value: str, problem: str) -> None:
    shutil.copytree(REPO / "examples" / "models" / "add_mul", tmp_path / "add_mul")
    (tmp_path / "a.toml").write_text(MANIFEST.format(key=f"build = {value}", target="a"))
    for command in ("list", "build"):
        result = selective_build(tmp_path, "manifest=a.toml", command)
        assert (result.returncode, result.stderr) == (2, f"error: a.toml: {problem}\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.toml", "add_mul"]


@pytest.mark.parametrize(
    ("command", "writes"),
    [
        (["forget"], False),
        (["forget", "selection:a"], False),
        (["ignore", "selection:a"], True),  # saves doit's database
        (["reset-dep"], True),
    ],
    ids=lambda item: " ".join(item) if isinstance(item, list) else str(item),
)
def test_a_command_that_writes_into_a_brand_new_folder_claims_it(
    tmp_path: Path, command: list[str], writes: bool
) -> None:
    """Not only a build: the first command to leave anything in build/ records the owner,
    so a second manifest is refused there afterwards."""
    shutil.copytree(REPO / "examples" / "models" / "add_mul", tmp_path / "add_mul")
    (tmp_path / "a.toml").write_text(MANIFEST.format(key="", target="a"))
    (tmp_path / "b.toml").write_text(MANIFEST.format(key="", target="b"))
    result = selective_build(tmp_path, "manifest=a.toml", *command)
    assert result.returncode == 0, result.stdout + result.stderr
    written = snapshot(tmp_path / "build") if (tmp_path / "build").exists() else {}
    assert bool(written) == writes
    if writes:
        assert (tmp_path / "build" / ".manifest").read_text() == "../a.toml\n"
        refused = selective_build(tmp_path, "manifest=b.toml", "list")
        assert (refused.returncode, refused.stderr) == (2, REFUSED)
