"""Our kernels on ExecuTorch's runtime (Note [ExecuTorch kernel adapter]), on the kernel
tests' include-all `runtime = "executorch"` runner: every example model, the delegated ones
included, gives our runtime's outputs bit for bit (its references for programs our runtime
cannot run); a kernel's failure is the line our runner prints; the runner's command line is
ours. (Every conformance program runs on it in tests/conformance/test_conformance.py.)"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.executorch.install import ExecutorchInstall
from tests.conformance.tolerances import compare
from tests.executorch_install import executorch_install
from tests.kernels.harness import KernelRunner
from tests.workspace import REPO

__all__ = ["executorch_install"]

MODELS = REPO / "examples" / "models"
PROGRAMS = REPO / "tests" / "conformance" / "programs"


def example_models() -> dict[str, tuple[Path, str, list[Path], list[Path]]]:
    """Every model of the default manifest, and the XNNPACK-lowered examples: name ->
    (program, method, inputs, outputs)."""
    manifest = tomllib.loads((REPO / "selective.toml").read_text())["models"]
    found = {
        name: (
            REPO / model["path"],
            model.get("method", "forward"),
            [REPO / p for p in model["inputs"]],
            [REPO / p for p in model["outputs"]],
        )
        for name, model in manifest.items()
    }
    for folder in sorted(MODELS.glob("xnn*")):
        found[folder.name] = (
            folder / f"{folder.name}.pte",
            "forward",
            sorted(folder.glob("in*.npy")),
            sorted(folder.glob("out*.npy")),
        )
    return found


EXAMPLES = example_models()
# Held to their references alone: the delegated programs (our runtime has no backend), and
# the user's custom operators (the kernel tests' include-all runner of ours lacks my_ops).
REFERENCES_ONLY = {name for name in EXAMPLES if name.startswith("xnn")} | {"custom_ops"}


def test_the_runner_links_executorchs_shared_runtime(
    executorch_runner: Path, executorch_install: ExecutorchInstall
) -> None:
    linked = subprocess.run(["ldd", str(executorch_runner)], capture_output=True, text=True)
    assert f"libexecutorch.so => {executorch_install.runtime_library}" in linked.stdout


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_model_matches_our_runtime(
    name: str, executorch_runner: Path, all_runner: Path, tmp_path: Path
) -> None:
    program, method, input_files, output_files = EXAMPLES[name]
    inputs = [np.load(path) for path in input_files]
    expected = [np.load(path) for path in output_files]
    (tmp_path / "et").mkdir()
    actual = KernelRunner(executorch_runner, tmp_path / "et").run_file(
        program, inputs, len(expected), method
    )
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        assert compare(index, got, want, computed_in_bfloat16=False) is None
    if name in REFERENCES_ONLY:
        return
    (tmp_path / "rt").mkdir()
    ours = KernelRunner(all_runner, tmp_path / "rt").run_file(
        program, inputs, len(expected), method
    )
    for index, (got, own) in enumerate(zip(actual, ours, strict=True)):
        assert got.dtype == own.dtype and got.shape == own.shape, index
        assert got.tobytes() == own.tobytes(), f"output {index} differs from our runtime's"


def test_a_kernel_failure_is_the_line_our_runner_prints(
    executorch_runner: Path, all_runner: Path, tmp_path: Path
) -> None:
    """The kernel's message, through ExecuTorch's log and context.fail, is the runner's one
    line, the same as ours, with the same exit status."""
    program = PROGRAMS / "clamp.pte"
    with np.load(PROGRAMS / "clamp.npz") as data:
        inputs = [data[name] for name in sorted(data.files) if name.startswith("u8/run0/in")]
    command_inputs = []
    for index, array in enumerate(inputs):
        np.save(tmp_path / f"in{index}.npy", array)
        command_inputs += ["--input", str(tmp_path / f"in{index}.npy")]
    lines = []
    for runner in (executorch_runner, all_runner):
        command = [str(runner), str(program), "--method", "u8", *command_inputs]
        result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        lines.append((result.returncode, result.stdout, result.stderr))
    assert (
        lines[0]
        == lines[1]
        == (
            1,
            "",
            f"runner: {program}: aten::clamp.out: a bound does not fit in self's dtype\n",
        )
    )


# The command line, as our runner's (runtime/runner/main.cpp, tests/runtime/test_runner_cli.py).
ADD_MUL = [MODELS / "add_mul" / "add_mul.pte"] + [
    a for name in ("in0.npy", "in1.npy") for a in ("--input", MODELS / "add_mul" / name)
]


def one_line(runner: Path, *args: str | Path) -> tuple[int, str]:
    result = subprocess.run(
        [str(runner), *map(str, args)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.stderr.count("\n") == 1 and not result.stdout, result.stderr
    return result.returncode, result.stderr.strip()


def test_usage_and_bad_options_are_one_line(executorch_runner: Path) -> None:
    usage = (
        "runner: usage: runner MODEL.pte [--method NAME] [--input FILE.npy]... "
        "[--output-dir DIR] [--iterations N]"
    )
    assert one_line(executorch_runner) == (2, usage)
    assert one_line(executorch_runner, *ADD_MUL, "--iterations", "0") == (
        2,
        "runner: 0: takes a whole number from 1 to 1000000000",
    )
    assert one_line(executorch_runner, *ADD_MUL, "--bogus", "1") == (
        2,
        "runner: --bogus: unknown argument, or an option without a value",
    )


def test_unusable_files_are_named(executorch_runner: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "program.pte"
    os.mkfifo(fifo)
    assert one_line(executorch_runner, fifo) == (
        2,
        f"runner: {fifo}: is a named pipe, not a file",
    )
    assert one_line(executorch_runner, tmp_path / "absent.pte") == (
        2,
        f"runner: {tmp_path}/absent.pte: no such file, or it cannot be opened",
    )
    garbage = tmp_path / "garbage.pte"
    garbage.write_bytes(b"not a program at all, not even close to one")
    code, line = one_line(executorch_runner, garbage)
    assert code == 2 and line.startswith(f"runner: {garbage}: ")
    pte = MODELS / "add_mul" / "add_mul.pte"
    assert one_line(executorch_runner, pte, "--input", MODELS / "add_mul" / "in0.npy") == (
        2,
        f"runner: {pte}: wrong number of --input files for the method",
    )
    assert one_line(executorch_runner, pte, "--method", "backward") == (
        2,
        "runner: backward: the program has no method of this name",
    )


def test_iterations_print_the_timing_lines_then_the_outputs(executorch_runner: Path) -> None:
    command = [str(executorch_runner), *map(str, ADD_MUL), "--iterations", "3"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"mean time per run: \d+\.\d{3} us", lines[0]), lines
    assert re.fullmatch(r"min time per run: \d+\.\d{3} us", lines[1]), lines
    assert lines[2:] == ["0: Float (2, 2)"]
