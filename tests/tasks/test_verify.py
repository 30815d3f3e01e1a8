"""run_model: what keeps a model from running is found before the runner starts (an input
or reference it cannot carry, outputs over the model's limit); the runner writes only into
its own folder; and each output is judged relative to its scale (issue 22)."""

from __future__ import annotations

import dataclasses
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.manifest import Model
from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import IntList, KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.verification import DEGENERATE, FAILED, OK
from selective_build.tasks.verify import fresh_folder, run_model
from tests.workspace import REPO

ADD_MUL = REPO / "examples" / "models" / "add_mul"


@pytest.mark.parametrize("kind", ["input", "reference"])
def test_a_complex128_file_is_named_before_the_runner_runs(tmp_path: Path, kind: str) -> None:
    plain, wide = tmp_path / "plain.npy", tmp_path / "wide.npy"
    np.save(plain, np.zeros(2, np.float32))
    np.save(wide, np.zeros(2, np.complex128))
    inputs, outputs = ((wide,), (plain,)) if kind == "input" else ((plain,), (wide,))
    model = Model("m", tmp_path / "m.pte", "forward", inputs, outputs)
    runner = tmp_path / "no-runner"  # never started: running it would fail differently
    result = run_model(runner, model, tmp_path / "out")
    assert (result.status, result.detail) == (
        FAILED,
        f"{kind} {wide}: complex128 arrays are not supported by the runner (bool, uint8, "
        "int8, int16, int32, int64, float16, float32, float64 and complex64 are)",
    )


def _ones_program(path: Path, elements: int) -> Path:
    """A program that fills a planned float32 output of `elements` values with ones."""
    values = (elements, IntList((0,)), Tensor(ScalarType.Float, (elements,)))
    ones = KernelCall(OperatorName.parse("aten::ones.out"), (1, 2, 2))
    save_program([Method("forward", values, (), (2,), (ones,))], path)
    return path


def test_a_small_program_planning_a_huge_output_is_refused_before_it_runs(
    tmp_path: Path,
) -> None:
    """Issue 22, item 8: a program of a few hundred bytes planning a 2 GiB output made the
    runner fill and write 2 GiB; verification now refuses it in one line, reading only
    the program's plan (the runner is never started)."""
    program = _ones_program(tmp_path / "ones.pte", 1 << 29)
    assert program.stat().st_size < 1024
    reference = tmp_path / "out0.npy"
    np.save(reference, np.ones(4, np.float32))
    model = Model("huge", program, "forward", (), (reference,))
    started = time.process_time()
    result = run_model(tmp_path / "no-runner", model, tmp_path / "out")
    assert time.process_time() - started < 5  # reading a plan, not 2 GiB (a generous bound)
    assert (result.status, result.detail) == (
        FAILED,
        "output 0 would be 2.0 GiB (2,147,483,648 B), over the verify limit of 64.0 MiB "
        '(67,108,864 B); raise it with output_limit = "2 GiB" in [models.huge]',
    )
    assert not (tmp_path / "out").exists()


def test_the_limit_counts_every_output_and_is_raised_by_the_models_key(tmp_path: Path) -> None:
    program = tmp_path / "two.pte"
    planned = (Tensor(ScalarType.Float, (5 << 20,)), Tensor(ScalarType.Float, (5 << 20,)))
    save_program([Method("forward", (*planned, IntList(())), (), (0, 1), ())], program)
    reference = tmp_path / "out0.npy"
    np.save(reference, np.ones(1, np.float32))
    model = Model("two", program, "forward", (), (reference, reference), output_limit=32 << 20)
    result = run_model(tmp_path / "no-runner", model, tmp_path / "out")
    assert result.detail == (
        "its 2 outputs would be 40.0 MiB (41,943,040 B) together, over the verify limit of "
        '32.0 MiB (33,554,432 B); raise it with output_limit = "40 MiB" in [models.two]'
    )
    raised = dataclasses.replace(model, output_limit=40 << 20)
    result = run_model(tmp_path / "no-runner", raised, tmp_path / "out")
    assert result.detail is not None and result.detail.startswith("cannot run ")


def test_a_link_in_place_of_the_output_folder_is_removed_not_followed(tmp_path: Path) -> None:
    references = tmp_path / "references"
    references.mkdir()
    (references / "output0.npy").write_bytes(b"reference")
    verify = tmp_path / "build" / "t" / "verify"
    verify.mkdir(parents=True)
    os.symlink(references, verify / "m")
    assert fresh_folder(verify / "m") is None
    assert not (verify / "m").is_symlink() and list((verify / "m").iterdir()) == []
    assert (references / "output0.npy").read_bytes() == b"reference"
    # The folder above it too.
    (verify / "m").rmdir()
    verify.rmdir()
    os.symlink(references, verify)
    assert fresh_folder(verify / "m") is None
    assert not verify.is_symlink() and (verify / "m").is_dir()
    assert sorted(p.name for p in references.iterdir()) == ["output0.npy"]
    # A target folder linked elsewhere is refused, and nothing is written there.
    shutil.rmtree(tmp_path / "build" / "t")
    os.symlink(references, tmp_path / "build" / "t")
    assert fresh_folder(tmp_path / "build" / "t" / "verify" / "m") == (
        f"{tmp_path / 'build' / 't'} is a symbolic link to {references}: verification "
        "writes only into the build folder's own target folders; remove the link"
    )
    assert sorted(p.name for p in references.iterdir()) == ["output0.npy"]


def _add_mul(tmp_path: Path, x: np.ndarray, y: np.ndarray, reference: np.ndarray) -> Model:
    """add_mul, from the real exporter, on inputs and a reference of the test's own."""
    paths = [tmp_path / name for name in ("in0.npy", "in1.npy", "out0.npy")]
    for path, array in zip(paths, (x, y, reference), strict=True):
        np.save(path, array)
    return Model("add_mul", ADD_MUL / "add_mul.pte", "forward", tuple(paths[:2]), (paths[2],))


def test_references_are_judged_relative_to_their_scale(all_runner: Path, tmp_path: Path) -> None:
    """Issue 22, item 4: (x + y) * y of values near 3e-3 is near 2e-5; a reference 10 % off
    passed the absolute tolerance (1e-5) before, and fails now; the right one passes, with
    its scale and worst error kept."""
    x = np.full((2, 2), 3e-3, np.float32)
    y = np.array([[3e-3, 2e-3], [1e-3, 4e-3]], np.float32)
    right = (x + y) * y
    result = run_model(all_runner, _add_mul(tmp_path, x, y, right * 1.1), tmp_path / "out")
    assert result.status == FAILED
    assert result.detail is not None and result.detail.startswith("output0.npy: 4 of 4 values")
    result = run_model(all_runner, _add_mul(tmp_path, x, y, right), tmp_path / "out")
    assert result.status == OK
    (output,) = result.outputs
    assert output.scale == float(right.max()) and output.relative < 1e-6


def test_an_all_zero_reference_is_not_counted_as_verified(all_runner: Path, tmp_path: Path) -> None:
    """Issue 22, item 4: a zero reference (a zero-initialised head) matched whatever small
    values the runner computed; it is now a degenerate reference, named as such."""
    x = np.full((2, 2), 1e-3, np.float32)
    model = _add_mul(tmp_path, x, x, np.zeros((2, 2), np.float32))  # the runner gives 2e-6
    result = run_model(all_runner, model, tmp_path / "out")
    assert (result.status, result.detail) == (
        DEGENERATE,
        "output 0 has no nonzero finite value: a runner writing zeros matches it",
    )
    assert result.outputs[0].scale == 0.0


def test_a_fortran_order_input_is_read(all_runner: Path, tmp_path: Path) -> None:
    """Issue 22, item 9: refused before ("not supported"); now handed to the runner in C
    order, and the results are the C-order input's."""
    x = np.arange(4, dtype=np.float32).reshape(2, 2)
    y = np.array([[1, 2], [3, 4]], np.float32)
    model = _add_mul(tmp_path, np.asfortranarray(x), np.asfortranarray(y), (x + y) * y)
    result = run_model(all_runner, model, tmp_path / "out")
    assert result.status == OK, result.detail
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "input0.npy",
        "input1.npy",
        "output0.npy",
    ]
