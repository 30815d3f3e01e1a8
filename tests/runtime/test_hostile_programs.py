"""Truncated and corrupted programs on a runner built with AddressSanitizer and UBSan.

Every mutation must end in a normal exit: success (a flip in constant data changes only
the numbers) or one line `runner: FILE: what is wrong`. A signal, a sanitizer report (an
out-of-bounds read that happened not to crash), a hang or a multi-line message fails.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.workspace import BOTH_LIBRARIES_FROM_BUILD, REPO, build_in_repository

MODELS = {  # model -> its inputs; small programs covering tensors, lists, sym ints, methods
    "add_mul": ["in0.npy", "in1.npy"],
    "dynamic": ["in0.npy"],
    "multi_method": ["in0.npy"],
    "conv": ["in0.npy"],
}

SANITIZE = '"-fsanitize=address,undefined"'
MANIFEST = (
    f"""# Written by tests/runtime/test_hostile_programs.py.
[toolchains.sanitize]
compiler = "c++"
cflags = ["-O1", {SANITIZE}, "-fno-sanitize-recover=all", "-fno-sanitize=vptr"]
ldflags = [{SANITIZE}]
"""
    + BOTH_LIBRARIES_FROM_BUILD
    + "".join(
        f"""
[models.sanitized_{name}]
path = "../examples/models/{name}/{name}.pte"
inputs = [{", ".join(f'"../examples/models/{name}/{i}"' for i in inputs)}]
"""
        for name, inputs in MODELS.items()
    )
    + f"""
[targets.sanitized]
models = [{", ".join(f'"sanitized_{name}"' for name in MODELS)}]
libraries = ["portable", "prim"]
toolchain = "sanitize"
"""
)

# A hostile file may ask for terabytes; ASan then warns and returns null, as malloc would.
ENVIRONMENT = {**os.environ, "ASAN_OPTIONS": "allocator_may_return_null=1:detect_leaks=1"}
ALLOCATION_WARNING = "WARNING: AddressSanitizer failed to allocate"


@pytest.fixture(scope="module")
def runner() -> Path:
    return build_in_repository("sanitize-tests.toml", MANIFEST, "sanitized")


def input_arguments(inputs: list[Path]) -> list[str]:
    return [argument for path in inputs for argument in ("--input", str(path))]


def run(runner: Path, program: bytes, model: str, scratch: Path) -> str | None:
    """What is wrong with the runner's handling of `program`, or None."""
    scratch.mkdir()
    path = scratch / "program.pte"
    path.write_bytes(program)
    inputs = [REPO / "examples" / "models" / model / name for name in MODELS[model]]
    command = [str(runner), str(path), *input_arguments(inputs)]
    try:
        result = subprocess.run(
            [*command, "--output-dir", str(scratch)],
            capture_output=True,
            timeout=60,
            env=ENVIRONMENT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "hangs"
    stderr = result.stderr.decode("utf-8", "backslashreplace")
    lines = [line for line in stderr.splitlines() if ALLOCATION_WARNING not in line]
    if result.returncode < 0:
        return f"killed by signal {-result.returncode}: {stderr[-2000:]}"
    if "Sanitizer" in stderr.replace(ALLOCATION_WARNING, "") or "runtime error:" in stderr:
        return stderr[-3000:]
    if result.returncode != 0 and (len(lines) != 1 or not lines[0].startswith("runner: ")):
        return f"exit {result.returncode} without one line: {stderr[-2000:]}"
    if not result.stderr.isascii():
        return f"bytes of the file echoed raw: {stderr}"
    return None


def mutations(program: bytes, step: int) -> Iterator[tuple[str, bytes]]:
    """Truncations, and single-byte flips of three kinds, every `step` bytes."""
    for length in range(0, len(program), step):
        yield f"truncated to {length} B", program[:length]
    for offset in range(0, len(program), max(1, step // 2)):
        for mask in (0xFF, 0x80, 0x01):
            mutated = bytearray(program)
            mutated[offset] ^= mask
            yield f"byte {offset} ^ {mask:#04x}", bytes(mutated)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_mutated_programs_end_cleanly(runner: Path, model: str, tmp_path: Path) -> None:
    program = (REPO / "examples" / "models" / model / f"{model}.pte").read_bytes()
    cases = list(mutations(program, step=max(5, len(program) // 400)))

    def check(index_case: tuple[int, tuple[str, bytes]]) -> str | None:
        index, (name, data) = index_case
        problem = run(runner, data, model, tmp_path / str(index))
        return None if problem is None else f"{model}, {name}: {problem}"

    with ThreadPoolExecutor(max_workers=4) as pool:
        problems = [p for p in pool.map(check, enumerate(cases)) if p is not None]
    assert not problems, f"{len(problems)} of {len(cases)} mutations:\n" + "\n".join(problems[:5])


def test_the_unmodified_programs_run(runner: Path, tmp_path: Path) -> None:
    for model in MODELS:
        program = (REPO / "examples" / "models" / model / f"{model}.pte").read_bytes()
        assert run(runner, program, model, tmp_path / model) is None


@pytest.mark.parametrize("byte", [b"\n", b"\x1b", b"\xff"])
def test_an_operator_name_is_shown_safely(runner: Path, byte: bytes, tmp_path: Path) -> None:
    program = (REPO / "examples" / "models" / "add_mul" / "add_mul.pte").read_bytes()
    assert program.count(b"aten::mul") == 1
    hostile = program.replace(b"aten::mul", b"aten::m" + byte + b"l")
    path = tmp_path / "hostile.pte"
    path.write_bytes(hostile)
    inputs = [REPO / "examples" / "models" / "add_mul" / name for name in MODELS["add_mul"]]
    result = subprocess.run(
        [str(runner), str(path), *input_arguments(inputs)],
        capture_output=True,
        timeout=60,
        env=ENVIRONMENT,
        check=False,
    )
    assert result.returncode != 0
    assert result.stderr.count(b"\n") == 1 and result.stderr.isascii(), result.stderr
    assert b"operator aten::m?l.out is not in this runner" in result.stderr
