"""The installed `selective-build` command: the doit application of tasks/command.py, with a
help and a version of its own, and the manifest found as git and cargo find their files.

Note [Manifest search]
Without `manifest=PATH`, the command looks for `selective.toml` in the current folder, then
in each folder above it, and runs in the folder where it found one (as `doit -k` does for a
dodo.py), so every path, the build folder and the doit database are those of a build
started there: building from a subfolder reruns nothing. A `build=DIR` given relative to
where the command was started keeps meaning that folder. When no folder up to the root
holds one, every command but `help` stops with one line naming the folder the search
started from.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from doit.cmd_help import Help

from selective_build.tasks.config import DEFAULT_MANIFEST
from selective_build.tasks.package import package_version

PROGRAM = "selective-build"

ABOUT = """\
{program} {version}: the smallest C++ runtime that runs your ExecuTorch models.

It reads selective.toml (found in the current folder or the nearest folder above it, as git
and cargo find theirs) and, for every target it lists: reads the operators each .pte model
calls, selects kernels from the kernel libraries, generates their registration, compiles
and links a runner with only those kernels, measures it against the size budgets, runs
every model on it against its reference outputs, and writes a C++ package (CMake,
pkg-config) for your app. Each stage reruns only when its own inputs change. Outputs go
to build/ beside the manifest.

Usage: {program} [OPTIONS] [VARIABLES] [COMMAND] [TASK...]

  {program}                       build every target (the `build` task)
  {program} target:NAME           build one target
  {program} list [--all]          the tasks (--all: each stage of each target)
  {program} info TASK             why a task would run
  {program} explain --op OP       who selects an operator and what it costs
  {program} explain --model NAME  what dropping a model would save
  {program} clean                 remove what the build made
  {program} -n 2                  run two tasks at once (same bytes as one at a time)

Variables:
  manifest=PATH   build this manifest instead of searching for selective.toml
  build=DIR       put the outputs in DIR instead of build/ beside the manifest

Tasks, in order, each per model or target (`{program} list --all` names them all):
  model_ops, selection, codegen, compile, link, size, verify, package, summary

Version: {program} --version. The README and docs/ describe the manifest, the size
report, the runner and the package.
"""


def version_text() -> str:
    """Ours, then doit's: the engine's behaviour depends on both."""
    from doit.version import VERSION

    doit_version = ".".join(str(part) for part in VERSION)
    return f"{PROGRAM} {package_version()} (doit {doit_version})"


class SelectiveHelp(Help):  # type: ignore[misc]
    """doit's `help`, whose usage page starts with what this command does (ABOUT), then
    lists doit's commands as doit's own page does."""

    def print_usage(self, cmds: Mapping[str, Any]) -> None:
        print(ABOUT.format(program=PROGRAM, version=package_version()))
        print("Commands (doit's, with the tasks of the manifest):")
        for name in sorted(cmds):
            print(f"  {PROGRAM} {name:16s}  {cmds[name].doc_purpose}")
        print()
        print(f"  {PROGRAM} help <command>    one command's options")
        print(f"  {PROGRAM} help <task>       one task's parameters")


def find_manifest(start: Path) -> Path | None:
    """The nearest selective.toml in `start` or a folder above it (Note [Manifest search])."""
    for folder in (start, *start.parents):
        candidate = folder / DEFAULT_MANIFEST
        if candidate.is_file():
            return candidate
    return None


def enter_manifest_folder(args: list[str]) -> list[str] | str:
    """Note [Manifest search]: the arguments to run with from the manifest's folder (which
    is now the working folder), or the one-line error when there is no manifest to find."""
    if any(arg.startswith("manifest=") for arg in args):
        return args
    start = Path(os.getcwd())
    found = find_manifest(start)
    if found is None:
        if "help" in args:
            return args
        return (
            f"error: no {DEFAULT_MANIFEST} in {start} or any folder above it: write one"
            " there, or name one with manifest=PATH"
        )
    if found.parent == start:
        return args
    os.chdir(found.parent)
    return [
        f"build={start / arg[len('build=') :]}" if arg.startswith("build=") else arg for arg in args
    ]


def main(argv: list[str] | None = None) -> int:
    """Entry point of `selective-build`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--version"]:
        print(version_text())
        return 0
    if args[:1] in (["--help"], ["-h"]):
        args = ["help"]
    entered = enter_manifest_folder(args)
    if isinstance(entered, str):
        print(entered, file=sys.stderr)
        return 2
    from selective_build.tasks.command import main as run_doit

    return run_doit(entered)
