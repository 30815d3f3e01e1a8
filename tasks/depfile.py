"""Header dependencies from the compiler's depfiles, as a doit `uptodate` check.

Note [Headers behind uptodate]
Listing depfile headers in `file_dep` would change the task's dependency set after its
first run, which costs every object one extra compile (doit notes, P17). Instead the
headers' digest is an `uptodate` value: computed from the depfile, compared with the one
saved after the last successful compile, and saved again after each compile.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

# One doit run checks many objects that share headers: hash each header once per run.
_DIGESTS: dict[tuple[str, int, int], str] = {}


def depfile_headers(depfile: Path) -> list[str]:
    """The prerequisites after the first one (the source) in a make-style depfile."""
    text = depfile.read_text(encoding="utf-8").replace("\\\n", " ")
    _, _, prerequisites = text.partition(": ")
    return prerequisites.split()[1:]


def _file_digest(path: str) -> str:
    try:
        status = Path(path).stat()
    except OSError:
        return "missing"
    key = (path, status.st_mtime_ns, status.st_size)
    if key not in _DIGESTS:
        _DIGESTS[key] = hashlib.md5(Path(path).read_bytes()).hexdigest()
    return _DIGESTS[key]


def headers_digest(depfile: Path) -> str | None:
    try:
        headers = depfile_headers(depfile)
    except OSError:
        return None
    combined = hashlib.md5()
    for header in sorted(headers):
        combined.update(f"{header}\0{_file_digest(header)}\0".encode())
    return combined.hexdigest()


class HeadersUnchanged:
    """`uptodate` item: the headers the last compile read still have the same content."""

    def __init__(self, depfile: Path) -> None:
        self.depfile = depfile

    def __call__(self, task: Any, values: dict[str, Any]) -> bool:
        task.value_savers.append(self._save)
        saved = values.get("headers")
        return saved is not None and saved == headers_digest(self.depfile)

    def _save(self) -> dict[str, Any]:
        return {"headers": headers_digest(self.depfile)}
