"""The runner's command line and files (issue 13, issue 12 item 7), on the sanitized
all-operators runner of the fuzz harness: paths that are not files are refused before they
are opened, `--iterations` is bounded, file names are escaped, every timed run gets its
inputs afresh, and a program is mapped rather than read into memory."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte.writer import KernelCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.fuzz.sanitized import ENVIRONMENT, sanitized_runner
from tests.workspace import REPO

MODELS = REPO / "examples" / "models"
ADD_MUL = [str(MODELS / "add_mul" / "add_mul.pte")] + [
    a for name in ("in0.npy", "in1.npy") for a in ("--input", str(MODELS / "add_mul" / name))
]


@pytest.fixture(scope="module")
def runner() -> Path:
    return sanitized_runner()


def run(runner: Path, *args: str | Path) -> subprocess.CompletedProcess[bytes]:
    # Generous: a FIFO opened for reading blocks forever; 60 s tells that from a slow start.
    return subprocess.run(
        [str(runner), *map(str, args)],
        capture_output=True,
        timeout=60,
        env=ENVIRONMENT,
        check=False,
    )


def one_line(result: subprocess.CompletedProcess[bytes]) -> str:
    """The failure's single stderr line (asserting it is the only one, and ASCII)."""
    assert result.returncode != 0
    assert result.stderr.isascii() and result.stderr.count(b"\n") == 1, result.stderr
    return result.stderr.decode().strip()


@pytest.mark.parametrize("value", ["99999999999999999999", "9223372036854775808", "1000000001"])
def test_too_many_iterations_are_refused(runner: Path, value: str) -> None:
    line = one_line(run(runner, *ADD_MUL, "--iterations", value))
    assert line == "runner: --iterations: takes a whole number from 1 to 1000000000"


@pytest.mark.parametrize("value", ["0", "-3", "+3", " 3", "3x", "0x10", "", "1e3"])
def test_iterations_that_are_not_a_count_are_refused(runner: Path, value: str) -> None:
    assert "--iterations: takes a whole number" in one_line(
        run(runner, *ADD_MUL, "--iterations", value)
    )


def test_iterations_at_the_bound_are_parsed(runner: Path) -> None:
    # Not run: the wrong input count fails first, after the command line was accepted.
    line = one_line(run(runner, MODELS / "add_mul" / "add_mul.pte", "--iterations", "1000000000"))
    assert line.endswith("wrong number of --input files for the method")


def test_a_named_pipe_is_refused_without_blocking(runner: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "program.pte"
    os.mkfifo(fifo)
    assert one_line(run(runner, fifo)) == f"runner: {fifo}: is a named pipe, not a file"
    inputs = [str(MODELS / "add_mul" / "add_mul.pte"), "--input", str(fifo), "--input", str(fifo)]
    assert one_line(run(runner, *inputs)) == f"runner: {fifo}: is a named pipe, not a file"


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("/dev/null", "a device"),
        ("/dev/zero", "a device"),
        ("/", "a directory"),
    ],
)
def test_devices_and_directories_are_refused(runner: Path, path: str, what: str) -> None:
    assert stat.S_IFMT(os.stat(path).st_mode) != stat.S_IFREG
    assert one_line(run(runner, path)) == f"runner: {path}: is {what}, not a file"


def test_a_missing_file_is_named(runner: Path, tmp_path: Path) -> None:
    assert (
        one_line(run(runner, tmp_path / "absent.pte"))
        == f"runner: {tmp_path}/absent.pte: no such file, or it cannot be opened"
    )


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("a\x1b[2Jb.pte", "a\\x1b[2Jb.pte"),
        ("line\nbreak.pte", "line\\x0abreak.pte"),
        ("back\\slash\r.pte", "back\\\\slash\\x0d.pte"),
        ("caf\u00e9.pte", "caf\\xc3\\xa9.pte"),
    ],
)
def test_file_names_are_printed_escaped(
    runner: Path, tmp_path: Path, name: str, shown: str
) -> None:
    program = tmp_path / name
    program.write_bytes(b"not a program")
    assert one_line(run(runner, program)) == (
        f"runner: {tmp_path}/{shown}: not an ExecuTorch program of version ET12"
    )
    inputs = ["--input", str(program) + "x", "--input", str(program)]
    line = one_line(run(runner, MODELS / "add_mul" / "add_mul.pte", *inputs))
    assert line == f"runner: {tmp_path}/{shown}x: no such file, or it cannot be opened"


def test_every_iteration_gets_its_inputs(runner: Path, tmp_path: Path) -> None:
    """attn's memory plan reuses its input's bytes for a later value: the second run read
    that value as embedding indices ('index is out of range') when inputs were set once."""
    folder = MODELS / "attn"
    args = [folder / "attn.pte", "--input", folder / "in0.npy", "--output-dir", tmp_path]
    result = run(runner, *args, "--iterations", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert re.fullmatch(r"mean time per run: \d+\.\d{3} us", lines[0]), lines
    assert re.fullmatch(r"min time per run: \d+\.\d{3} us", lines[1]), lines
    mean, fastest = (float(line.split(": ")[1].split()[0]) for line in lines[:2])
    assert 0 < fastest <= mean
    np.testing.assert_allclose(
        np.load(tmp_path / "output0.npy"), np.load(folder / "out0.npy"), rtol=1e-5, atol=1e-6
    )


def test_inputs_reused_by_the_plan_are_set_before_every_run(runner: Path, tmp_path: Path) -> None:
    """A program written here that changes its input in place (indices += 1), then looks
    rows up with it: run 2 fails ('index is out of range') unless it gets its input again."""
    weight = np.arange(6, dtype=np.float32).reshape(3, 2)
    values = (
        Tensor(ScalarType.Long, (2,)),  # the input: indices 0 and 1
        Tensor(ScalarType.Long, (2,), constant=np.ones(2, np.int64).tobytes()),
        1,  # alpha
        Tensor(ScalarType.Float, (3, 2), constant=weight.tobytes()),
        -1,  # padding_idx
        False,
        False,
        Tensor(ScalarType.Float, (2, 2)),
    )
    calls = (
        KernelCall(OperatorName.parse("aten::add.out"), (0, 1, 2, 0, 0)),
        KernelCall(OperatorName.parse("aten::embedding.out"), (3, 0, 4, 5, 6, 7, 7)),
    )
    program = tmp_path / "in_place.pte"
    save_program([Method("forward", values, (0,), (7,), calls)], program)
    data = tmp_path / "indices.npy"
    np.save(data, np.arange(2, dtype=np.int64))
    result = run(runner, program, "--input", data, "--output-dir", tmp_path, "--iterations", "5")
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "output0.npy"), weight[[1, 2]])


_MAX_RSS = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], capture_output=True, check=False)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def test_a_program_is_mapped_not_read(all_runner: Path, tmp_path: Path) -> None:
    """Loading a program with 64 MiB of constants touches only the pages it reads: the
    runner's peak memory stays far below the file (reading it whole cost all of it)."""
    weights = Tensor(ScalarType.Float, (16, 1 << 20), constant=bytes(64 << 20))
    program = tmp_path / "big.pte"
    save_program([Method("forward", (weights,), (), (0,), ())], program)
    assert program.stat().st_size > 64 << 20
    result = subprocess.run(
        [sys.executable, "-c", _MAX_RSS, str(all_runner), str(program), "--method", "absent"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    peak_kib = int(result.stdout)
    assert peak_kib < 24 << 10, f"peak RSS {peak_kib} KiB for a 64 MiB program"


@pytest.mark.parametrize("byte", [2, 0x80, 0xFF])
def test_a_bool_input_holding_another_byte_is_refused(
    runner: Path, tmp_path: Path, byte: int
) -> None:
    """Found by the fuzz harness (seed 13, case 19998): bool_ops read an input byte 255 as
    a bool, undefined behaviour reported by UBSan in binary_op.h."""
    folder = MODELS / "bool_ops"
    array = (folder / "in0.npy").read_bytes()
    hostile = tmp_path / "in0.npy"
    hostile.write_bytes(array[:-1] + bytes([byte]))  # the last element's byte
    inputs = [hostile, folder / "in1.npy", folder / "in2.npy"]
    result = run(runner, folder / "bool_ops.pte", *[a for p in inputs for a in ("--input", p)])
    assert one_line(result) == f"runner: {hostile}: npy bool data holds a byte other than 0 or 1"
