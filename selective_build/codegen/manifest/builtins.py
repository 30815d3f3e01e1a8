"""The kernel libraries we ship: found by folder, named in a manifest without a table."""

from __future__ import annotations

from pathlib import Path

from selective_build.codegen.manifest.model import Library

# One folder each with its functions.yaml: a target names them without a [libraries.*]
# table (a table of the same name overrides one).
BUILTIN_KERNELS = Path(__file__).resolve().parents[2] / "kernels"
# Note [Library cflags]
# A library's objects compile with the toolchain's cflags and then its own, so a later
# -O2 beats the toolchain's -Os for that library alone; its objects are keyed by the whole
# command (tasks/layout.py shared_object_dir), so sharing between targets stays exact.
# The built-in optimized library defaults to -O2 (benchmarks/RESULTS.md, "sgemm": -O3 is no
# faster) and Eigen's include path; `[libraries.optimized] cflags = [...]` replaces both.
# Eigen is header-only: a cross toolchain compiles the same headers, and since a cross
# compiler does not search the host's /usr/include, the path is always given explicitly.
OPTIMIZED = "optimized"
OPTIMIZED_CFLAGS = ("-O2",)
EIGEN_CANDIDATES = (
    Path("/usr/include/eigen3"),  # Debian/Ubuntu libeigen3-dev, Fedora eigen3-devel
    Path("/usr/local/include/eigen3"),  # built from source, Homebrew on Intel macOS
    Path("/opt/homebrew/include/eigen3"),  # Homebrew on Apple silicon
)


def builtin_libraries(kernels: Path) -> dict[str, Library]:
    """The built-in libraries: every folder of `kernels` holding a functions.yaml."""
    return {
        folder.name: Library(
            folder.name, folder / "functions.yaml", folder, builtin_cflags(folder.name)
        )
        for folder in sorted(kernels.iterdir())
        if (folder / "functions.yaml").is_file()
    }


def builtin_cflags(name: str) -> tuple[str, ...]:
    """A built-in library's own cflags (Note [Library cflags])."""
    if name != OPTIMIZED:
        return ()
    eigen = eigen_include()
    # -isystem: Eigen's own warnings (an unused variable under -mavx2) are not ours.
    return (*OPTIMIZED_CFLAGS, *(("-isystem", str(eigen)) if eigen else ()))


def eigen_include() -> Path | None:
    """The first folder of EIGEN_CANDIDATES holding Eigen's headers."""
    return next((path for path in EIGEN_CANDIDATES if (path / "Eigen" / "Core").is_file()), None)
