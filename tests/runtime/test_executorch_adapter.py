"""Our kernels on ExecuTorch's runtime (Note [ExecuTorch kernel adapter]): the generated
registration, our kernel sources unchanged, the adapter and the ExecuTorch runner, linked
to the installed wheel's libexecutorch.so, run real-exporter programs whose calls take
every kind of value (tensor lists in and out, several outs, optional tensor lists, strings,
outputs resized at run time, ExecuTorch's own prim ops around ours). Each output equals our
own runtime's bit for bit, and PyTorch's within the conformance tolerances."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from codegen.executorch.install import ExecutorchInstall
from codegen.pte import read_model_ops
from codegen.selection import Selection
from tests.conformance.test_conformance import KNOWN_FAILURES
from tests.conformance.tolerances import compare
from tests.executorch_build import Runners, build_runners
from tests.executorch_install import executorch_install
from tests.kernels.harness import KernelFailed, KernelRunner
from tests.workspace import REPO

__all__ = ["executorch_install"]

PROGRAMS = REPO / "tests" / "conformance" / "programs"
INDEX = json.loads((PROGRAMS / "index.json").read_text())["programs"]
MODELS = REPO / "examples" / "models"
# Conformance programs, each for a kind of call: a Tensor[] in (cat), a Tensor(a!)[] out
# (unbind_copy), two outs (max_dim), a Tensor?[] (index), a str (gelu), an output sized by
# the data (nonzero), values and indices (topk), ExecuTorch's sym_size feeding ours (arange),
# a kernel's refusal (clamp/u8, a known failure: both runners print the same line).
CONFORMANCE = (
    "cat",
    "unbind_copy",
    "max_dim",
    "index",
    "gelu",
    "nonzero",
    "topk",
    "arange",
    "clamp",
)
# Example models: two plain ones, and the symbolic batch (et_view and prim arithmetic from
# ExecuTorch's runtime, our kernels resizing their outputs).
EXAMPLES = ("add_mul", "mlp", "dynamic")


@pytest.fixture(scope="module")
def runners(
    executorch_install: ExecutorchInstall, tmp_path_factory: pytest.TempPathFactory
) -> Runners:
    selection = Selection()
    for name in CONFORMANCE:
        selection |= Selection.from_model(read_model_ops(PROGRAMS / f"{name}.pte"), name)
    for name in EXAMPLES:
        pte = MODELS / name / f"{name}.pte"
        selection |= Selection.from_model(read_model_ops(pte), pte.name)
    return build_runners(tmp_path_factory.mktemp("et"), executorch_install, selection)


def run_both(
    runners: Runners, scratch: Path, pte: Path, inputs: list[np.ndarray], count: int, method: str
) -> list[np.ndarray]:
    """The ExecuTorch runner's outputs, after checking each equals our runner's bit for bit;
    KernelFailed when both fail with the same line."""
    outcomes = []
    for runner, name in ((runners.executorch, "et"), (runners.ours, "rt")):
        (scratch / name).mkdir(exist_ok=True)
        try:
            outcomes.append(
                KernelRunner(runner, scratch / name).run_file(pte, inputs, count, method)
            )
        except KernelFailed as error:
            outcomes.append(str(error))
    theirs, ours = outcomes
    if isinstance(theirs, str) or isinstance(ours, str):
        assert theirs == ours
        raise KernelFailed(theirs)
    for index, (got, own) in enumerate(zip(theirs, ours, strict=True)):
        assert got.dtype == own.dtype and got.shape == own.shape, index
        assert got.tobytes() == own.tobytes(), f"output {index} differs from our runtime's"
    return theirs


def test_the_runner_links_executorchs_shared_runtime(
    runners: Runners, executorch_install: ExecutorchInstall
) -> None:
    linked = subprocess.run(["ldd", str(runners.executorch)], capture_output=True, text=True)
    assert f"libexecutorch.so => {executorch_install.runtime_library}" in linked.stdout


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_model_matches_our_runtime(name: str, runners: Runners, tmp_path: Path) -> None:
    folder = MODELS / name
    inputs = [np.load(path) for path in sorted(folder.glob("in*.npy"))]
    expected = [np.load(path) for path in sorted(folder.glob("out*.npy"))]
    pte = folder / f"{name}.pte"
    actual = run_both(runners, tmp_path, pte, inputs, len(expected), "forward")
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        assert compare(index, got, want, computed_in_bfloat16=False) is None


@pytest.mark.parametrize(
    ("name", "method"),
    [(name, method) for name in CONFORMANCE for method in sorted(INDEX[name]["methods"])],
)
def test_conformance_program_matches_our_runtime(
    name: str, method: str, runners: Runners, tmp_path: Path
) -> None:
    entry = INDEX[name]
    with np.load(PROGRAMS / f"{name}.npz") as data:
        for run in range(entry["runs"]):
            inputs = [data[f"{method}/run{run}/in{i}"] for i in range(entry["inputs"])]
            expected = [data[f"{method}/run{run}/out{i}"] for i in range(entry["outputs"])]
            pte = PROGRAMS / f"{name}.pte"
            try:
                actual = run_both(runners, tmp_path, pte, inputs, len(expected), method)
            except KernelFailed as error:
                known = KNOWN_FAILURES.get(f"{name}/{method}")
                assert str(error).replace(str(pte), pte.name) == known
                continue
            for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
                problem = compare(index, got, want, computed_in_bfloat16=method == "bf16")
                assert problem is None, f"run {run}: {problem}"


def test_a_kernel_failure_is_the_line_our_runner_prints(runners: Runners, tmp_path: Path) -> None:
    """The kernel's message, through ExecuTorch's log and context.fail, is the runner's one
    line, the same as ours, with the same exit status."""
    program = PROGRAMS / "clamp.pte"
    with np.load(PROGRAMS / "clamp.npz") as data:
        inputs = [data[f"u8/run0/in{i}"] for i in range(INDEX["clamp"]["inputs"])]
    lines = []
    for runner in (runners.executorch, runners.ours):
        command = [str(runner), str(program), "--method", "u8"]
        for index, array in enumerate(inputs):
            np.save(tmp_path / f"in{index}.npy", array)
            command += ["--input", str(tmp_path / f"in{index}.npy")]
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


@pytest.fixture(scope="module")
def dtype_selective_runner(
    executorch_install: ExecutorchInstall, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """add_mul's kernels, compiled for Float only (the model's dtypes)."""
    pte = MODELS / "add_mul" / "add_mul.pte"
    selection = Selection.from_model(read_model_ops(pte), pte.name)
    folder = tmp_path_factory.mktemp("et_dtype")
    built = build_runners(folder, executorch_install, selection, dtype_selective=True, ours=False)
    return built.executorch


def test_a_dtype_selective_target_runs_its_dtypes_and_names_the_others(
    dtype_selective_runner: Path, tmp_path: Path
) -> None:
    folder = MODELS / "add_mul"
    inputs = [np.load(folder / "in0.npy"), np.load(folder / "in1.npy")]
    kernel = KernelRunner(dtype_selective_runner, tmp_path)
    (got,) = kernel.run_file(folder / "add_mul.pte", inputs, 1)
    assert got.tobytes() == np.load(folder / "out0.npy").tobytes()
    half = MODELS / "half_ops" / "half_ops.pte"  # the same (x + y) * y on Half tensors
    halves = [np.load(MODELS / "half_ops" / f"in{i}.npy") for i in range(2)]
    with pytest.raises(KernelFailed) as error:
        kernel.run_file(half, halves, 1)
    assert str(error.value) == (
        f"runner: {half}: aten::add.out: dtype Half was not selected in this build"
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


def test_usage_and_bad_options_are_one_line(dtype_selective_runner: Path) -> None:
    usage = (
        "runner: usage: runner MODEL.pte [--method NAME] [--input FILE.npy]... "
        "[--output-dir DIR] [--iterations N]"
    )
    assert one_line(dtype_selective_runner) == (2, usage)
    assert one_line(dtype_selective_runner, *ADD_MUL, "--iterations", "0") == (
        2,
        "runner: 0: takes a whole number from 1 to 1000000000",
    )
    assert one_line(dtype_selective_runner, *ADD_MUL, "--bogus", "1") == (
        2,
        "runner: --bogus: unknown argument, or an option without a value",
    )


def test_unusable_files_are_named(dtype_selective_runner: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "program.pte"
    os.mkfifo(fifo)
    assert one_line(dtype_selective_runner, fifo) == (
        2,
        f"runner: {fifo}: is a named pipe, not a file",
    )
    assert one_line(dtype_selective_runner, tmp_path / "absent.pte") == (
        2,
        f"runner: {tmp_path}/absent.pte: no such file, or it cannot be opened",
    )
    garbage = tmp_path / "garbage.pte"
    garbage.write_bytes(b"not a program at all, not even close to one")
    code, line = one_line(dtype_selective_runner, garbage)
    assert code == 2 and line.startswith(f"runner: {garbage}: ")
    pte = MODELS / "add_mul" / "add_mul.pte"
    assert one_line(dtype_selective_runner, pte, "--input", MODELS / "add_mul" / "in0.npy") == (
        2,
        f"runner: {pte}: wrong number of --input files for the method",
    )
    assert one_line(dtype_selective_runner, pte, "--method", "backward") == (
        2,
        "runner: backward: the program has no method of this name",
    )


def test_iterations_print_the_timing_lines_then_the_outputs(
    dtype_selective_runner: Path, tmp_path: Path
) -> None:
    command = [str(dtype_selective_runner), *map(str, ADD_MUL), "--iterations", "3"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"mean time per run: \d+\.\d{3} us", lines[0]), lines
    assert re.fullmatch(r"min time per run: \d+\.\d{3} us", lines[1]), lines
    assert lines[2:] == ["0: Float (2, 2)"]
