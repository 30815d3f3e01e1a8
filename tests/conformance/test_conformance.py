"""Every real-exporter conformance program, run on the include-all runner.

The programs, their inputs and PyTorch's outputs come from `export.py` (ExecuTorch 1.5.1's
exporter); `programs/index.json` says what each calls. `expected.toml` is the hand-kept
part: operators no exporter can make a program call (each with the reason), and programs
that fail today (each with the exact error line, a strict xfail: it must keep failing with
that line, and the mark must go when it passes).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from selective_build.codegen.kernel_library import read_schema_operators
from selective_build.codegen.pte import read_model_ops
from tests.conformance.properties import check_property
from tests.conformance.tolerances import compare
from tests.kernels.harness import KernelFailed, KernelRunner

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAMS = HERE / "programs"
INDEX: dict[str, Any] = json.loads((PROGRAMS / "index.json").read_text())
EXPECTED: dict[str, Any] = tomllib.loads((HERE / "expected.toml").read_text())
UNEXPORTABLE: dict[str, str] = EXPECTED["unexportable"]
KNOWN_FAILURES: dict[str, str] = EXPECTED["known_failures"]
# On ExecuTorch's runtime, besides KNOWN_FAILURES: where its own kernels (its prim ops) serve.
EXECUTORCH_KNOWN_FAILURES: dict[str, str] = EXPECTED["executorch_known_failures"]


class KnownFailure(Exception):
    """The program failed with exactly the error `expected.toml` records for it."""


def library_operators() -> dict[str, str]:
    """Every operator of every kernel library -> the functions.yaml declaring it."""
    found = {}
    for path in sorted((REPO / "kernels").glob("*/functions.yaml")):
        for name in read_schema_operators(path):
            found[str(name)] = str(path.relative_to(REPO))
    return found


def targeted() -> set[str]:
    """Operators some program was exported to call."""
    return {op for entry in INDEX["programs"].values() for op in entry["targets"]}


def test_every_operator_has_a_program() -> None:
    programs = targeted()
    missing = [
        f"{op} ({source})"
        for op, source in library_operators().items()
        if op not in programs and op not in UNEXPORTABLE
    ]
    assert not missing, (
        "operators with no real-exporter conformance program: add a case to "
        f"tests/conformance/cases.py and run export.py: {missing}"
    )


def test_unexportable_operators_have_a_reason_and_no_program() -> None:
    operators = library_operators()
    programs = targeted()
    for op, reason in UNEXPORTABLE.items():
        assert op in operators, f"expected.toml: {op} is in no library"
        assert len(reason.split()) >= 5, f"expected.toml: {op} needs a stated reason"
        assert op not in programs, f"expected.toml: {op} has a program now; remove the entry"


def test_known_failures_name_methods() -> None:
    for key in [*KNOWN_FAILURES, *EXECUTORCH_KNOWN_FAILURES]:
        name, _, method = key.partition("/")
        methods = INDEX["programs"].get(name, {}).get("methods", [])
        assert method in methods, f"expected.toml: {key} is no program/method of index.json"


@pytest.mark.parametrize("name", sorted(INDEX["programs"]))
def test_index_matches_program(name: str) -> None:
    """The index says what the committed file really holds (read with our own reader)."""
    entry = INDEX["programs"][name]
    ops = read_model_ops(PROGRAMS / f"{name}.pte")
    assert sorted(str(op) for op in ops.operators) == entry["operators"]
    assert sorted(ops.methods) == sorted(entry["methods"])
    assert set(entry["targets"]) <= set(entry["operators"])
    with np.load(PROGRAMS / f"{name}.npz") as data:
        expected_keys = {
            f"{method}/run{run}/{kind}{i}"
            for method in entry["methods"]
            for run in range(entry["runs"])
            for kind, count in (("in", entry["inputs"]), ("out", entry["outputs"]))
            for i in range(count)
        }
        assert set(data.files) == expected_keys


# The include-all runners every program runs on: portable first, optimized first (its
# kernels for the dtypes they declare, the rest falling back to portable), and the portable
# kernels on ExecuTorch's runtime (runtime = "executorch").
RUNNERS = ("all_runner", "optimized_runner", "executorch_runner")


def known_failures(runner: str) -> dict[str, str]:
    """The programs that fail on `runner`, each with its exact line."""
    if runner == "executorch_runner":
        return KNOWN_FAILURES | EXECUTORCH_KNOWN_FAILURES
    return KNOWN_FAILURES


def _methods() -> Iterator[Any]:
    for runner in RUNNERS:
        known = known_failures(runner)
        for name, entry in sorted(INDEX["programs"].items()):
            for method in sorted(entry["methods"]):
                key = f"{name}/{method}"
                marks = []
                if key in known:
                    marks.append(
                        pytest.mark.xfail(raises=KnownFailure, strict=True, reason=known[key])
                    )
                yield pytest.param(runner, name, method, id=f"{runner}-{key}", marks=marks)


def _problem(kernel: KernelRunner, name: str, method: str, run: int, data: Any) -> str | None:
    """None when the run matches PyTorch, else one line: the runner's error or the first
    output that differs."""
    entry = INDEX["programs"][name]
    inputs = [data[f"{method}/run{run}/in{i}"] for i in range(entry["inputs"])]
    expected = [data[f"{method}/run{run}/out{i}"] for i in range(entry["outputs"])]
    program = PROGRAMS / f"{name}.pte"
    try:
        actual = kernel.run_file(program, inputs, len(expected), method)
    except KernelFailed as error:
        # The runner names the file by the path it was given: keep the line checkout-free.
        return str(error).replace(str(program), program.name)
    except FileNotFoundError as error:
        return f"an output was not written: {Path(str(error.filename)).name}"
    if "compare" in entry:
        # Random or uninitialized outputs: judged by a property (properties.py).
        return check_property(entry["compare"], inputs, actual, expected, method == "bf16")
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        problem = compare(index, got, want, computed_in_bfloat16=method == "bf16")
        if problem:
            return problem
    return None


@pytest.mark.parametrize(("runner", "name", "method"), list(_methods()))
def test_program(
    name: str, method: str, runner: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    kernel = KernelRunner(request.getfixturevalue(runner), tmp_path)
    key = f"{name}/{method}"
    with np.load(PROGRAMS / f"{name}.npz") as data:
        for run in range(INDEX["programs"][name]["runs"]):
            problem = _problem(kernel, name, method, run, data)
            if problem is None:
                continue
            if known_failures(runner).get(key) == problem:
                raise KnownFailure(problem)
            pytest.fail(f"{key} run {run}: {problem}", pytrace=False)
