"""Where every build output lives: all paths come from here, relative to the repository
root (doit matches `file_dep` to `targets` by exact string, so one spelling matters)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codegen.manifest import Toolchain

BUILD = Path("build")
CODEGEN = Path("codegen")
RUNTIME = Path("runtime")
DEP_FILE = BUILD / ".doit.sqlite3"


def model_ops(model: str) -> Path:
    return BUILD / "models" / f"{model}.ops.yaml"


def model_info(model: str) -> Path:
    """A model's methods and the delegate backends it calls (which select no kernels)."""
    return BUILD / "models" / f"{model}.info.json"


def target_dir(target: str) -> Path:
    return BUILD / target


def selected_operators(target: str) -> Path:
    return target_dir(target) / "selected_operators.yaml"


def provenance(target: str) -> Path:
    """Per operator and kernel key, the models and manifest entries that need it."""
    return target_dir(target) / "provenance.json"


def gen_dir(target: str) -> Path:
    return target_dir(target) / "gen"


def resolution(target: str) -> Path:
    return target_dir(target) / "resolution.json"


def size_estimate(target: str) -> Path:
    """Codegen's prediction of the runner's size, from earlier size reports."""
    return target_dir(target) / "size_estimate.json"


def runner(target: str) -> Path:
    return target_dir(target) / "runner"


def runtime_library(target: str) -> Path:
    """The runtime, kernels and registration without the runner's command line: the static
    library a user links into their own app."""
    return target_dir(target) / "libruntime.a"


def unstripped_runner(target: str) -> Path:
    return target_dir(target) / "runner.unstripped"


def size_json(target: str) -> Path:
    return target_dir(target) / "size.json"


def size_md(target: str) -> Path:
    return target_dir(target) / "size.md"


def size_html(target: str) -> Path:
    return target_dir(target) / "size.html"


def verify_json(target: str) -> Path:
    return target_dir(target) / "verify.json"


def shared_object_dir(toolchain: Toolchain, flags: tuple[str, ...]) -> Path:
    """Objects that read no generated header are shared by every target built with the
    same compiler and flags (Note [Shared objects])."""
    digest = hashlib.sha256("\0".join(toolchain.compile_command() + flags).encode()).hexdigest()
    return BUILD / "obj" / f"{toolchain.name}-{digest[:10]}"


def target_object_dir(target: str) -> Path:
    return target_dir(target) / "obj"


def object_path(directory: Path, source: Path) -> Path:
    return directory / source.with_suffix(".o")
