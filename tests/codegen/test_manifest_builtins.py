"""Built-in kernel libraries: named by a target without a [libraries.*] table."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest import (
    BUILTIN_KERNELS,
    builtin_libraries,
    eigen_include,
    load_manifest,
)
from selective_build.codegen.manifest import builtins as builtin_libraries_module

TARGET = """
[targets.tiny]
libraries = ["portable", "prim"]
"""


def test_the_shipped_libraries_are_built_in() -> None:
    libraries = builtin_libraries(BUILTIN_KERNELS)
    assert {"portable", "prim"} <= set(libraries)
    assert "common" not in libraries  # a folder of shared headers, no functions.yaml
    assert libraries["prim"].functions == BUILTIN_KERNELS / "prim" / "functions.yaml"


def test_a_target_names_built_in_libraries_without_tables(tmp_path: Path) -> None:
    (tmp_path / "selective.toml").write_text(TARGET)
    manifest = load_manifest(tmp_path / "selective.toml")
    assert set(manifest.libraries) == {"portable", "prim"}
    assert manifest.libraries["portable"].sources == BUILTIN_KERNELS / "portable"


def test_built_in_libraries_come_from_the_folder_given(tmp_path: Path) -> None:
    (tmp_path / "selective.toml").write_text(TARGET)
    manifest = load_manifest(tmp_path / "selective.toml", Path("kernels"))
    assert manifest.libraries["prim"].sources == Path("kernels/prim")


def test_a_table_of_the_same_name_overrides_the_built_in_one(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "functions.yaml").write_text("[]\n")
    (tmp_path / "selective.toml").write_text(
        '[libraries.portable]\nfunctions = "mine/functions.yaml"\nsources = "mine"\n' + TARGET
    )
    manifest = load_manifest(tmp_path / "selective.toml")
    assert manifest.libraries["portable"].sources == mine
    assert manifest.libraries["prim"].sources == BUILTIN_KERNELS / "prim"


def test_an_unknown_library_is_still_one_line(tmp_path: Path) -> None:
    (tmp_path / "selective.toml").write_text('[targets.tiny]\nlibraries = ["portble"]\n')
    with pytest.raises(InputError, match=r"targets.tiny.libraries\[0\]: unknown library 'portble'"):
        load_manifest(tmp_path / "selective.toml")


OPTIMIZED_TARGET = """
[targets.fast]
libraries = ["optimized", "portable"]
"""


def test_the_optimized_library_compiles_at_o2_with_eigen(tmp_path: Path) -> None:
    (tmp_path / "selective.toml").write_text(OPTIMIZED_TARGET)
    manifest = load_manifest(tmp_path / "selective.toml")
    assert manifest.libraries["optimized"].cflags == ("-O2", "-isystem", str(eigen_include()))
    assert manifest.libraries["portable"].cflags == ()  # the toolchain's -Os alone
    assert manifest.targets["fast"].threads == 1


def test_a_table_may_give_a_built_in_library_only_its_cflags(tmp_path: Path) -> None:
    (tmp_path / "selective.toml").write_text(
        '[libraries.optimized]\ncflags = ["-O3", "-Ivendor/eigen"]\n' + OPTIMIZED_TARGET
    )
    optimized = load_manifest(tmp_path / "selective.toml").libraries["optimized"]
    assert optimized.cflags == ("-O3", "-Ivendor/eigen")
    assert optimized.sources == BUILTIN_KERNELS / "optimized"


def test_without_eigen_a_target_of_the_optimized_library_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtin_libraries_module, "EIGEN_CANDIDATES", (tmp_path / "none",))
    (tmp_path / "selective.toml").write_text(OPTIMIZED_TARGET)
    with pytest.raises(InputError) as caught:
        load_manifest(tmp_path / "selective.toml")
    assert str(caught.value) == (
        f"{tmp_path / 'selective.toml'}: targets.fast.libraries[0]: the optimized library "
        f"needs Eigen 3.4's headers, found in none of {tmp_path / 'none'}: install them "
        "(Debian's libeigen3-dev) or give their folder in [libraries.optimized] cflags = "
        '["-O2", "-isystem", "/path/to/eigen3"]'
    )


@pytest.mark.parametrize(
    ("threads", "problem"),
    [
        ("0", "expected a thread count from 1 to 256, got 0"),
        ("257", "expected a thread count from 1 to 256, got 257"),
        ('"4"', "expected int, got a string"),
    ],
)
def test_threads_is_a_small_positive_count(tmp_path: Path, threads: str, problem: str) -> None:
    (tmp_path / "selective.toml").write_text(OPTIMIZED_TARGET + f"threads = {threads}\n")
    with pytest.raises(InputError) as caught:
        load_manifest(tmp_path / "selective.toml")
    assert str(caught.value) == f"{tmp_path / 'selective.toml'}: targets.fast.threads: {problem}"
