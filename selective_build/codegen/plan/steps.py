"""What the compile and link actions run: each step holds its whole command line.

Note [Tool step code]
A compile or link step's code dependency is the import closure of the action that runs it
(tasks/compile_action.py, tasks/link_action.py): editing that code reruns every such step,
hundreds of compiles. So the steps hold plain commands and paths, and this module imports
nothing else of the project: the closure is the few modules that start a command and move
its outputs into place, not the manifest parser or the planner. What the planner decides
(flags, paths, which objects) reaches a task through its command line, which the task
records (its `uptodate`), and through its targets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CompileStep:
    """One translation unit compiled to one object (and its depfile)."""

    source: Path
    object: Path
    flags: tuple[str, ...]
    driver: tuple[str, ...]  # the compiler, behind its launcher (ccache, ...) when there is one

    @property
    def compiler(self) -> str:
        """The compiler program itself (a dependency: an upgrade recompiles)."""
        return self.driver[-1]

    @property
    def depfile(self) -> Path:
        return self.object.with_suffix(".d")

    def command(self, object_path: Path | None = None, depfile: Path | None = None) -> list[str]:
        """The compile command, writing to the given paths (default: the final ones).

        The depfile's rule names the final object (`-MT`) whatever path the object is
        written to first: the temporary's name holds the process id, so two builds would
        write different depfiles for the same object."""
        return [
            *self.driver,
            *self.flags,
            "-c",
            str(self.source),
            "-o",
            str(object_path or self.object),
            "-MMD",
            "-MT",
            str(self.object),
            "-MF",
            str(depfile or self.depfile),
        ]


@dataclass(frozen=True)
class Tools:
    """The toolchain's programs and flags a link step runs."""

    driver: tuple[str, ...]  # the compiler driver links, behind its launcher
    cflags: tuple[str, ...]
    ldflags: tuple[str, ...]
    strip: str
    ar: str
    # After the objects: what the runtime links against besides them (library folders,
    # libraries, rpath: Note [Target runtime], codegen/plan/runtime.py).
    libraries: tuple[str, ...] = ()

    @property
    def compiler(self) -> str:
        return self.driver[-1]

    def link_command(self, objects: Sequence[Path], output: Path) -> list[str]:
        return [
            *self.driver,
            *self.cflags,
            *self.ldflags,
            "-o",
            str(output),
            *(str(o) for o in objects),
            *self.libraries,
        ]

    def strip_command(self, unstripped: Path, output: Path) -> list[str]:
        return [self.strip, "--strip-all", "-o", str(output), str(unstripped)]

    def archive_command(self, objects: Sequence[Path], output: Path) -> list[str]:
        # D: zero timestamps and ids, so two builds give the same bytes.
        return [self.ar, "rcsD", str(output), *(str(o) for o in objects)]


@dataclass(frozen=True)
class Link:
    """Objects linked into `unstripped`, then stripped into `output`."""

    objects: tuple[Path, ...]
    unstripped: Path
    output: Path


@dataclass(frozen=True)
class Archive:
    objects: tuple[Path, ...]
    output: Path


@dataclass(frozen=True)
class LinkStep:
    """A target's links and its static library, run in the order of `actions` (a
    library-only target archives first: its size app links the archive)."""

    target: str
    tools: Tools
    actions: tuple[Link | Archive, ...]
    inputs: tuple[Path, ...]  # every object read, each made by a compile step

    @property
    def outputs(self) -> list[Path]:
        found: list[Path] = []
        for action in self.actions:
            found += (
                [action.unstripped, action.output] if isinstance(action, Link) else [action.output]
            )
        return found

    def signature(self) -> str:
        """The command lines that decide the outputs, as one string (the task records it):
        each action's command in order, the strip program after the first action."""
        words: list[str] = []
        for index, action in enumerate(self.actions):
            if isinstance(action, Link):
                words += self.tools.link_command(action.objects, action.unstripped)
            else:
                words += self.tools.archive_command(action.objects, action.output)
            if index == 0:
                words.append(self.tools.strip)
        return " ".join(words)
