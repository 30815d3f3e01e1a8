"""Where outputs go (codegen/plan/paths.py)."""

from __future__ import annotations

from pathlib import Path

from selective_build.codegen.plan.paths import BuildPaths

PATHS = BuildPaths(Path("build"), Path("."), Path("/work/repo"))


def test_an_object_keeps_its_source_s_path_below_the_working_folder() -> None:
    assert PATHS.object_path(Path("o"), Path("kernels/op_add.cpp")) == Path("o/kernels/op_add.o")


def test_an_object_from_outside_goes_to_a_folder_named_by_its_source_s_folder() -> None:
    outside = PATHS.object_path(Path("o"), Path("/lib/kernels/op_add.cpp"))
    through_parent = PATHS.object_path(Path("o"), Path("../../lib/kernels/op_add.cpp"))
    assert outside.parent.parent == Path("o/.ext") and outside.name == "op_add.o"
    assert outside.parent.name.startswith("kernels-")
    assert through_parent == outside  # /work/repo/../../lib is /lib
    other = PATHS.object_path(Path("o"), Path("/elsewhere/kernels/op_add.cpp"))
    assert other.parent != outside.parent


def test_shared_objects_are_keyed_by_the_whole_command() -> None:
    one = PATHS.shared_object_dir("host", ("c++", "-Os"))
    assert one.parent == Path("build/.obj") and one.name.startswith("host-")
    assert one != PATHS.shared_object_dir("host", ("c++", "-O2"))
    assert one == PATHS.shared_object_dir("host", ("c++", "-Os"))
