"""The kept corpus: the cases the fuzzers found interesting, committed under
tests/fuzz/corpus/ and replayed by the test suite's short run (tests/fuzz/test_kept.py).

- `reader/`: programs through the Python reader; `runner/`: programs and input arrays
  through the sanitized runner. Each folder's `index.json` names every kept file with the
  example it was drawn from, the mutation, and the classes it was kept for.
- `libfuzzer/`: the C++ loader target's corpus, minimised by libFuzzer (`-merge=1`).

A case is interesting when it shows a class no other case showed: its one-line message
with file names, numbers, quoted text and operator names taken out (`message_class`), or,
for a program that reads, the shape of one of its kernel keys (`key_shapes`), or for the
runner, success on an example. Of the cases of one class the smallest file is kept (of at
most MAX_KEPT_BYTES), then the lowest (seed, index): workers finishing in any order, and
runs split with `--start`, keep the same cases. `--keep` merges a run into the corpus by
the same rule. A finding is kept under a class of its own, so once fixed it is replayed
on every run.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.model import KernelKey
from selective_build.codegen.pte.reader import ModelOps
from tests.workspace import REPO

CORPUS = REPO / "tests" / "fuzz" / "corpus"
INDEX = "index.json"
# Cases of larger files (mutations of the big examples) are not kept, findings aside: the
# corpus stays small, and the runs still draw from every example.
MAX_KEPT_BYTES = 16384

# What varies between cases without reaching other code: names, numbers, quoted text.
_NORMALISE = (
    (
        re.compile(r"operator \S+ is not in this runner \(kernel key [^)]*\)"),
        "operator OP is not in this runner",
    ),
    (re.compile(r"backend \S* is not available"), "backend B is not available"),
    (re.compile(r"b?'(?:[^'\\]|\\.)*'"), "'…'"),
    (re.compile(r"[\w.]*::\S*?(?=:? )"), "OP"),
    (re.compile(r"\\x[0-9a-fA-F]{2}"), r"\\xNN"),
    (re.compile(r"\d+"), "N"),
)


def message_class(message: str, paths: Sequence[str]) -> str:
    """`message` (one line) with the file names under `paths`, names and numbers taken out."""
    for path in sorted(paths, key=len, reverse=True):
        message = re.sub(re.escape(path) + r"[^\s:]*", "FILE", message)
    for pattern, replacement in _NORMALISE:
        message = pattern.sub(replacement, message)
    return message


def _key_shape(key: KernelKey) -> str:
    if key.tensors is None:
        return "default"
    ranks = [len(t.dim_order) for t in key.tensors]
    permuted = any(t.dim_order != tuple(range(len(t.dim_order))) for t in key.tensors)
    return f"{len(ranks)} tensors" + ", permuted" * permuted + ", rank 0" * (0 in ranks)


def key_shapes(ops: ModelOps) -> frozenset[str]:
    """The shapes of the kernel keys of a program that reads, as classes: how many
    tensors, and whether one has a dim order other than the identity or rank 0."""
    return frozenset(f"key {_key_shape(k)}" for keys in ops.operators.values() for k in keys)


@dataclass(frozen=True)
class KeptCase:
    name: str  # "<seed>-<index>"
    order: tuple[int, int, int]  # (bytes, seed, index): the smallest wins a class
    data: bytes  # the mutated file
    suffix: str  # ".pte" or ".npy"
    info: dict[str, object]  # example, what, and for the runner: input, iterations


@dataclass
class Keeper:
    """The best case of each class seen by a run (thread-safe: runner workers offer)."""

    best: dict[str, KeptCase] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def offer(self, classes: Iterable[str], case: KeptCase) -> None:
        classes = list(classes)
        if len(case.data) > MAX_KEPT_BYTES and not any(c.startswith("finding ") for c in classes):
            return
        with self.lock:
            for name in classes:
                if name not in self.best or case.order < self.best[name].order:
                    self.best[name] = case

    def write(self, folder: Path) -> int:
        """Merge into the corpus in `folder`: each class is kept by the smaller of its case
        there and this run's; a file no class keeps any more goes. How many files changed
        (written or removed; a lock serialises the runs that write at once)."""
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            return self._merge(folder)
        finally:
            os.close(descriptor)

    def _merge(self, folder: Path) -> int:
        index = read_index(folder)
        owner = {c: file for file, entry in index.items() for c in _classes(entry)}
        order = {file: _order(folder / file) for file in index}
        new: dict[str, KeptCase] = {}
        for name, case in sorted(self.best.items()):
            file = case.name + case.suffix
            if name not in owner or case.order < order[owner[name]]:
                owner[name], order[file], new[file] = file, case.order, case
        kept: dict[str, list[str]] = {}
        for name, file in sorted(owner.items()):
            kept.setdefault(file, []).append(name)
        merged = {
            file: {**(new[file].info if file in new else index[file]), "classes": classes}
            for file, classes in sorted(kept.items())
        }
        gone, written = set(index) - set(merged), set(new) & set(merged)
        for file in gone:
            (folder / file).unlink()
        for file in written:
            (folder / file).write_bytes(new[file].data)
        (folder / INDEX).write_text(json.dumps(merged, indent=1, ensure_ascii=True) + "\n")
        return len(gone) + len(written)


def _classes(entry: dict[str, object]) -> list[str]:
    classes = entry["classes"]
    assert isinstance(classes, list)
    return classes


def _order(path: Path) -> tuple[int, int, int]:
    """A kept file's (bytes, seed, index), from its size and its name "<seed>-<index>"."""
    seed, _, index = path.stem.partition("-")
    return path.stat().st_size, int(seed), int(index)


def read_index(folder: Path) -> dict[str, dict[str, object]]:
    """The kept files of `folder` and what each was kept for (empty when none)."""
    path = folder / INDEX
    if not path.exists():
        return {}
    index: dict[str, dict[str, object]] = json.loads(path.read_text())
    return index
