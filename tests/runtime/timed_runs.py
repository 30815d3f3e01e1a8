"""A runner's `--iterations` report of a program: what the load-time Notes (constant folding,
weights prepared, calls fused, the kernel calls left) print beside the times, and the
outputs of the last run."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall


def run_iterations(
    runner: Path, program: Path, inputs: list[np.ndarray], outputs: int, folder: Path
) -> tuple[str, list[np.ndarray]]:
    """The runner's standard output over three runs of `program`, and the outputs of the
    last, its inputs and outputs kept in `folder`."""
    command = [str(runner), str(program), "--iterations", "3", "--output-dir", str(folder)]
    for index, array in enumerate(inputs):
        np.save(folder / f"in{index}.npy", array, allow_pickle=False)
        command += ["--input", str(folder / f"in{index}.npy")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout, [np.load(folder / f"output{i}.npy") for i in range(outputs)]


def reported_bytes(stdout: str, line: str) -> int:
    """The bytes of the report's line `<line>: N B`, which must be there."""
    found = re.search(rf"^{re.escape(line)}: (\d+) B$", stdout, re.MULTILINE)
    assert found is not None, stdout
    return int(found.group(1))


def kernel_calls(stdout: str) -> int:
    """The report's `kernel calls per run: N` (a runner built with constant folding): what
    the rewrites at load left to call, so a test can tell a rewrite was made even where it
    gives the same bits as the calls it replaces."""
    found = re.search(r"^kernel calls per run: (\d+)$", stdout, re.MULTILINE)
    assert found is not None, stdout
    return int(found.group(1))


def call(op: str, *args: int) -> KernelCall:
    """A kernel call of the written programs, by its operator's name."""
    return KernelCall(OperatorName.parse(op), args)
