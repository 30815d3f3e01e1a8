from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest.model import Model
from selective_build.codegen.references import Reference, load_all, references, with_npy_files


def test_npy_files_are_themselves(tmp_path: Path) -> None:
    paths = [tmp_path / "a.npy", tmp_path / "b.npy"]
    assert references(paths, "inputs") == [Reference(p) for p in paths]


def test_numbered_arrays_split_into_inputs_and_outputs(tmp_path: Path) -> None:
    archive = tmp_path / "m.npz"
    np.savez(archive, out0=np.zeros(1), in1=np.ones(2), in0=np.zeros(3))
    assert [str(r) for r in references([archive], "inputs")] == [
        f"{archive}[in0]",
        f"{archive}[in1]",
    ]
    assert [r.member for r in references([archive], "outputs")] == ["out0"]
    assert [a.shape for a in load_all([archive], "inputs")] == [(3,), (2,)]


def test_other_names_are_taken_in_the_archive_order(tmp_path: Path) -> None:
    archive = tmp_path / "m.npz"
    np.savez(archive, zeta=np.ones(3), alpha=np.ones(4))
    assert [r.member for r in references([archive], "inputs")] == ["zeta", "alpha"]
    np.savez(archive, np.zeros(1), np.ones(2))
    assert [r.member for r in references([archive], "outputs")] == ["arr_0", "arr_1"]


def test_a_gap_in_the_numbers_is_named(tmp_path: Path) -> None:
    archive = tmp_path / "m.npz"
    np.savez(archive, in0=np.zeros(1), in2=np.zeros(1))
    with pytest.raises(InputError, match=r"m.npz: holds in2 but no in1$"):
        references([archive], "inputs")


def test_a_file_that_is_no_archive_is_one_line(tmp_path: Path) -> None:
    archive = tmp_path / "m.npz"
    archive.write_text("not a zip")
    with pytest.raises(InputError, match=r"m.npz: not an .npz archive \(File is not a zip"):
        references([archive], "outputs")


def test_the_runner_gets_npy_files(tmp_path: Path) -> None:
    archive = tmp_path / "m.npz"
    np.savez(archive, in0=np.arange(3, dtype=np.float32), out0=np.ones(2))
    model = Model("m", tmp_path / "m.pte", "forward", (archive,), (archive,))
    files = with_npy_files(model, tmp_path / "refs")
    assert files.inputs == (tmp_path / "refs" / "in0.npy",)
    assert files.outputs == (tmp_path / "refs" / "out0.npy",)
    np.testing.assert_array_equal(np.load(files.inputs[0]), np.arange(3, dtype=np.float32))
    plain = Model("m", tmp_path / "m.pte", "forward", (tmp_path / "a.npy",), ())
    assert with_npy_files(plain, tmp_path / "unused") is plain
    assert not (tmp_path / "unused").exists()
