"""The runner's output files appear whole (Note [Outputs appear whole] in
runtime/runner/npy.cpp), and an input it cannot read says why in one line (issue 22,
items 8 and 9)."""

from __future__ import annotations

import resource
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import IntList, KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.workspace import REPO

ELEMENTS = 1 << 20  # a 4 MiB float32 output
LIMIT = 1 << 20  # the largest file the runner may write: a quarter of it


def _ones_program(path: Path) -> Path:
    values = (ELEMENTS, IntList((0,)), Tensor(ScalarType.Float, (ELEMENTS,)))
    ones = KernelCall(OperatorName.parse("aten::ones.out"), (1, 2, 2))
    save_program([Method("forward", values, (), (2,), (ones,))], path)
    return path


def _file_size_limit(stop: bool) -> Callable[[], None]:
    """Limit the files the runner writes to LIMIT bytes: the write that crosses it either
    kills the runner (SIGXFSZ, as a kill in the middle of writing would) or fails."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL if stop else signal.SIG_IGN)

    return limit


def _run(runner: Path, program: Path, out: Path, stop: bool) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(runner), str(program), "--output-dir", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=_file_size_limit(stop),
    )


def test_a_runner_stopped_while_writing_leaves_no_partial_output(
    all_runner: Path, tmp_path: Path
) -> None:
    """Before, the runner wrote output0.npy in place: stopped part way, it left the first
    megabyte of it, which a later comparison would read."""
    program = _ones_program(tmp_path / "ones.pte")
    out = tmp_path / "out"
    out.mkdir()
    previous = np.zeros(3, np.float32)
    np.save(out / "output0.npy", previous)  # a previous run's output stays whole too
    result = _run(all_runner, program, out, stop=True)
    assert result.returncode == -signal.SIGXFSZ
    np.testing.assert_array_equal(np.load(out / "output0.npy"), previous)

    result = _run(all_runner, program, out, stop=False)
    assert (result.returncode, result.stderr) == (
        1,
        f"runner: {out}/output0.npy: cannot write the file\n",
    )
    np.testing.assert_array_equal(np.load(out / "output0.npy"), previous)


def test_outputs_are_written_whole_under_their_names(all_runner: Path, tmp_path: Path) -> None:
    program = _ones_program(tmp_path / "ones.pte")
    result = subprocess.run(
        [str(all_runner), str(program), "--output-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ones.pte", "output0.npy"]
    np.testing.assert_array_equal(np.load(tmp_path / "output0.npy"), np.ones(ELEMENTS))


def test_a_fortran_order_input_is_named_in_one_line(all_runner: Path, tmp_path: Path) -> None:
    """Issue 22, item 9: "npy header or dtype is not supported" said nothing of the order."""
    model = REPO / "examples" / "models" / "add_mul"
    given = tmp_path / "in0.npy"
    np.save(given, np.asfortranarray(np.load(model / "in0.npy")))
    result = subprocess.run(
        [str(all_runner), str(model / "add_mul.pte"), "--input", str(given)]
        + ["--input", str(model / "in1.npy")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (result.returncode, result.stderr) == (
        2,
        f"runner: {given}: unsupported npy dtype or Fortran order\n",
    )
