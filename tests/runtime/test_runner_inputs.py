"""Note [Inputs read once] (runtime/runner/main.cpp): with `--iterations N`, a runner that
links the optimized library's layers opens each input file once and sets the later runs'
inputs from memory, still afresh before every run; a size-first runner opens them before
every run. Counted with strace (`openat` of the input's path), on the attn example, whose
memory plan reuses its input's bytes for a later value: an input not set again before a run
gives wrong outputs (test_runner_cli.py::test_every_iteration_gets_its_inputs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np

from tests.kernels.conftest import all_runner, optimized_runner
from tests.workspace import REPO

__all__ = ["all_runner", "optimized_runner"]

ATTN = REPO / "examples" / "models" / "attn"
RUNS = 4


def opens_of_the_input(runner: Path, tmp_path: Path) -> int:
    """How many times the runner opened its input over RUNS runs of attn (whose outputs
    must be the reference's)."""
    strace = shutil.which("strace")
    assert strace is not None, "strace is needed (apt-get install strace; .ci/run does)"
    source = tmp_path / "attn_input.npy"
    shutil.copyfile(ATTN / "in0.npy", source)
    trace = tmp_path / "trace.txt"
    command = [strace, "-f", "-e", "trace=openat", "-o", str(trace), str(runner)]
    command += [str(ATTN / "attn.pte"), "--input", str(source), "--output-dir", str(tmp_path)]
    result = subprocess.run(
        [*command, "--iterations", str(RUNS)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    np.testing.assert_allclose(
        np.load(tmp_path / "output0.npy"), np.load(ATTN / "out0.npy"), rtol=1e-5, atol=1e-6
    )
    return sum(f'"{source}"' in line for line in trace.read_text().splitlines())


def test_a_runner_with_the_optimized_layers_opens_its_input_once(
    optimized_runner: Path, tmp_path: Path
) -> None:
    assert opens_of_the_input(optimized_runner, tmp_path) == 1


def test_a_size_first_runner_opens_its_input_before_every_run(
    all_runner: Path, tmp_path: Path
) -> None:
    # portable, prim and quantized: constant folding, but no fusion or prepared weights.
    assert opens_of_the_input(all_runner, tmp_path) == RUNS
