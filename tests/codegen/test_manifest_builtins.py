"""Built-in kernel libraries: named by a target without a [libraries.*] table."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.errors import InputError
from codegen.manifest import BUILTIN_KERNELS, builtin_libraries, load_manifest

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
