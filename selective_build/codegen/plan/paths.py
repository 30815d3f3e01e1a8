"""Where every build output lives (Note [Build folder] in tasks/layout.py), and where the code
we ship is, as plain path arithmetic: the one place a path is spelled. tasks/layout.py makes
one `BuildPaths` from the command line and the manifest, and every path of a task comes from
it (doit matches `file_dep` to `targets` by exact string, so one spelling matters)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BuildPaths:
    build: Path  # the build folder
    source_root: Path  # the folder holding codegen/, tasks/, runtime/ and kernels/
    cwd: Path  # the working folder relative paths are taken from

    @property
    def codegen_dir(self) -> Path:
        return self.source_root / "codegen"

    @property
    def templates_dir(self) -> Path:
        return self.codegen_dir / "templates"

    @property
    def tasks_dir(self) -> Path:
        return self.source_root / "tasks"

    @property
    def runtime_dir(self) -> Path:
        return self.source_root / "runtime"

    @property
    def builtin_kernels_dir(self) -> Path:
        return self.source_root / "kernels"

    @property
    def dep_file(self) -> Path:
        """doit's database."""
        return self.build / ".doit.sqlite3"

    @property
    def owner_record(self) -> Path:
        """The file naming the manifest the build folder belongs to (Note [Build folder])."""
        return self.build / ".manifest"

    @property
    def lock_file(self) -> Path:
        """The build lock (tasks/engine/lock.py)."""
        return self.build / ".doit.lock"

    @property
    def digest_cache(self) -> Path:
        """The digests of files hashed on a doubt (tasks/engine/checker.py)."""
        return self.build / ".digests.json"

    @property
    def up_to_date_stamp(self) -> Path:
        """The no-op stamp (Note [Up-to-date stamp] in tasks/engine/stamp.py)."""
        return self.build / ".up-to-date.json"

    @property
    def engine_files(self) -> list[Path]:
        """The files the engine keeps in the build folder, besides the tasks' outputs."""
        journal = self.dep_file.with_name(self.dep_file.name + "-journal")  # sqlite's, as it writes
        return [
            self.dep_file,
            journal,
            self.digest_cache,
            self.up_to_date_stamp,
            self.owner_record,
            self.lock_file,
        ]

    def model_ops(self, model: str) -> Path:
        return self.build / ".models" / f"{model}.ops.yaml"

    def model_info(self, model: str) -> Path:
        """A model's methods and the delegate backends it calls (which select no kernels)."""
        return self.build / ".models" / f"{model}.info.json"

    @property
    def size_app_source(self) -> Path:
        """The minimal app a library-only target's size is measured with (tasks/size.py)."""
        return self.runtime_dir / "size_app" / "minimal_app.cpp"

    def target_dir(self, target: str) -> Path:
        return self.build / target

    def selection(self, target: str) -> Path:
        """The target's selection, every kernel key's sources kept (codegen/selection.py)."""
        return self.target_dir(target) / "selection.json"

    def selected_operators(self, target: str) -> Path:
        return self.target_dir(target) / "selected_operators.yaml"

    def provenance(self, target: str) -> Path:
        """Per operator and kernel key, the models and manifest entries that need it."""
        return self.target_dir(target) / "provenance.json"

    def gen_dir(self, target: str) -> Path:
        return self.target_dir(target) / "gen"

    def declared_dtypes_header(self, library: str, source: Path) -> Path:
        """A kernel source's declared_op_dtypes.h (Note [Declared dtypes]): a function of its
        library alone, so one for every target, and shared objects stay shared (Note
        [Shared objects])."""
        return self.build / ".libraries" / library / source.stem / "declared_op_dtypes.h"

    def resolution(self, target: str) -> Path:
        return self.target_dir(target) / "resolution.json"

    def size_estimate(self, target: str) -> Path:
        """Codegen's prediction of the runner's size, from earlier size reports."""
        return self.target_dir(target) / "size_estimate.json"

    def runner(self, target: str) -> Path:
        return self.target_dir(target) / "runner"

    def unstripped_runner(self, target: str) -> Path:
        return self.target_dir(target) / "runner.unstripped"

    def runtime_library(self, target: str) -> Path:
        """The runtime, kernels and registration without the runner's command line: the
        static library a user links into their own app."""
        return self.target_dir(target) / "libruntime.a"

    def size_app(self, target: str, with_library: bool) -> Path:
        """The minimal app linked with or without the target's library, stripped."""
        name = "with_library" if with_library else "without_library"
        return self.target_dir(target) / "size_app" / name

    def unstripped_size_app(self, target: str, with_library: bool) -> Path:
        """The minimal app before stripping (with the library: the attribution's symbols)."""
        return self.size_app(target, with_library).with_suffix(".unstripped")

    def package_dir(self, target: str) -> Path:
        """The C++ package an app builds against (tasks/package.py)."""
        return self.target_dir(target) / "package"

    def size_json(self, target: str) -> Path:
        return self.target_dir(target) / "size.json"

    def size_md(self, target: str) -> Path:
        return self.target_dir(target) / "size.md"

    def size_html(self, target: str) -> Path:
        return self.target_dir(target) / "size.html"

    def verify_json(self, target: str) -> Path:
        return self.target_dir(target) / "verify.json"

    def verify_outputs(self, target: str) -> Path:
        """What the runner wrote for each model of the target, one folder per model."""
        return self.target_dir(target) / "verify"

    def verify_dir(self, target: str, model: str) -> Path:
        """Where the runner writes a model's outputs when it is verified."""
        return self.verify_outputs(target) / model

    def shared_object_dir(self, toolchain: str, command: tuple[str, ...]) -> Path:
        """Objects that read no generated header are shared by every target built with the
        same compiler and flags (Note [Shared objects], codegen/plan/objects.py): the folder
        is named by the toolchain and a digest of the whole compile command."""
        digest = hashlib.sha256("\0".join(command).encode()).hexdigest()
        return self.build / ".obj" / f"{toolchain}-{digest[:10]}"

    def target_object_dir(self, target: str) -> Path:
        """Objects compiled against the target's generated headers (its dtype selection)."""
        return self.target_dir(target) / "obj"

    def object_path(self, directory: Path, source: Path) -> Path:
        """Where in `directory` the object of `source` goes. A source below the working
        folder keeps its relative path; any other (absolute, or reached through `..`) goes
        to `.ext/<its folder's name>-<digest of its folder>/`, so an object never lands
        beside its source and two folders never share an object name."""
        if not source.is_absolute() and ".." not in source.parts:
            return directory / source.with_suffix(".o")
        folder = Path(os.path.normpath(self.cwd / source.parent))
        digest = hashlib.sha256(str(folder).encode()).hexdigest()[:10]
        return directory / ".ext" / f"{folder.name}-{digest}" / source.with_suffix(".o").name
