"""Where outputs go (codegen/plan/paths.py) and what the size estimate is asked
(codegen/plan/estimate.py)."""

from __future__ import annotations

from pathlib import Path

from codegen.kernel_library import read_kernel_library
from codegen.model import OperatorName
from codegen.plan.estimate import every_dtype_buckets
from codegen.plan.paths import BuildPaths
from codegen.resolution import resolve
from codegen.selection import Selection

PATHS = BuildPaths(Path("build"), Path("."), Path("/work/repo"))
PORTABLE = Path(__file__).resolve().parents[2] / "kernels" / "portable"


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


def test_a_bucket_holds_every_dtype_only_when_an_operator_of_it_does() -> None:
    library = read_kernel_library("portable", PORTABLE / "functions.yaml", PORTABLE)
    float_add = Selection.from_op_dtypes({"aten::add.out": ["Float"]}, "a.pte")
    any_mul = Selection.from_operators([OperatorName.parse("aten::mul.out")], "extra_ops")
    resolution = resolve(float_add | any_mul, [library], "t")
    assert every_dtype_buckets(resolution, dtype_selective=True) == {
        "kernel:portable/op_add": False,
        "kernel:portable/op_mul": True,
    }
    assert set(every_dtype_buckets(resolution, dtype_selective=False).values()) == {True}
