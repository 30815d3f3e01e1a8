"""The C++ of the runtime, the kernel libraries and the examples is formatted by clang-format
with the repository's `.clang-format` (issue 14): one style, checked, not argued in review."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("runtime", "kernels", "examples", "tests")
# Test data and the golden copies of generated code are kept byte for byte as written or
# generated (codegen's templates, not clang-format, decide the generated layout), and so
# are a build's outputs (a manifest's default build/ folder beside it, as
# examples/executorch_app/build/).
GENERATED = {"data", "golden", "build"}


def cpp_files() -> list[Path]:
    files = [
        path
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".h", ".cpp", ".cc")
        and not GENERATED.intersection(path.relative_to(ROOT).parts)
    ]
    assert files, "no C++ files found: the layout changed"
    return files


def test_cpp_sources_are_formatted() -> None:
    tool = shutil.which("clang-format")
    assert tool, "clang-format is missing: install Debian's clang-format (.ci/run does)"
    result = subprocess.run(
        [tool, "--dry-run", "--Werror", *map(str, cpp_files())],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    # clang-format prints each unformatted place; the first lines are enough to find them.
    assert result.returncode == 0, "\n".join(result.stderr.splitlines()[:20]) + (
        "\nrun: clang-format -i $(git ls-files '*.h' '*.cpp' '*.cc')"
    )
