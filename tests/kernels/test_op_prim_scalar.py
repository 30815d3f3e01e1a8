"""The executorch_prim scalar kernels (kernels/prim), checked against Python's own arithmetic."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tests.kernels.harness import KernelFailed
from tests.kernels.prim_programs import scalar_op

BINARY: dict[str, Callable[[float, float], float]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "floordiv": operator.floordiv,
    "truediv": operator.truediv,
    "mod": operator.mod,
    "sym_max": max,
    "sym_min": min,
}
COMPARE: dict[str, Callable[[float, float], bool]] = {
    "eq": operator.eq,
    "gt": operator.gt,
    "lt": operator.lt,
    "ge": operator.ge,
    "le": operator.le,
}
PAIRS = [(7, 3), (-7, 3), (7, -3), (-7, -3), (6, 3), (2.5, 2), (-7.5, 2.0), (3, 0.5)]


# mod.Scalar takes SymInts (test_mod_takes_what_its_schema_says).
BINARY_CASES = [
    (name, a, b)
    for name in sorted(BINARY)
    for a, b in PAIRS
    if name != "mod" or (isinstance(a, int) and isinstance(b, int))
]


@pytest.mark.parametrize(("name", "a", "b"), BINARY_CASES)
def test_binary_like_python(
    all_runner: Path, tmp_path: Path, name: str, a: float, b: float
) -> None:
    expected = BINARY[name](a, b)
    out = scalar_op(all_runner, tmp_path, f"executorch_prim::{name}.Scalar", [a, b], np.float64)
    assert out == pytest.approx(expected)


@pytest.mark.parametrize(("a", "b"), [(7, 3), (-7, 3), (7, -3), (-9, -3)])
@pytest.mark.parametrize("name", ["floordiv", "mod"])
def test_int_overloads(all_runner: Path, tmp_path: Path, name: str, a: int, b: int) -> None:
    out = scalar_op(all_runner, tmp_path, f"executorch_prim::{name}.int", [a, b], np.int64)
    assert out == BINARY[name](a, b)


def test_mod_takes_what_its_schema_says(all_runner: Path, tmp_path: Path) -> None:
    # ExecuTorch's schema: executorch_prim::mod.Scalar(SymInt a, SymInt b) -> SymInt.
    with pytest.raises(KernelFailed) as caught:
        scalar_op(all_runner, tmp_path, "executorch_prim::mod.Scalar", [2.5, 2], np.float64)
    assert str(caught.value).endswith(
        "executorch_prim::mod.Scalar: argument 'a' expects int, got float"
    ), caught.value


def test_int_arithmetic_is_exact_and_wraps(all_runner: Path, tmp_path: Path) -> None:
    big = 2**62 + 1
    out = scalar_op(all_runner, tmp_path, "executorch_prim::add.Scalar", [big, big], np.int64)
    assert out == (2 * big + 2**63) % 2**64 - 2**63  # wraps like int64
    out = scalar_op(all_runner, tmp_path, "executorch_prim::mul.Scalar", [2**40 + 3, 5], np.int64)
    assert out == (2**40 + 3) * 5


@pytest.mark.parametrize(("a", "b"), [*PAIRS, (2, 2.0), (math.nan, 1.0)])
@pytest.mark.parametrize("name", sorted(COMPARE))
def test_comparisons(all_runner: Path, tmp_path: Path, name: str, a: float, b: float) -> None:
    out = scalar_op(all_runner, tmp_path, f"executorch_prim::{name}.Scalar", [a, b], np.bool_)
    assert bool(out) == COMPARE[name](a, b)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("neg", 5, -5),
        ("neg", -2.5, 2.5),
        ("sym_float", 3, 3.0),
        ("sym_int", -2.7, -2),
        ("ceil", 2.1, 3),
        ("ceil", -2.1, -2),
        ("ceil", 4, 4),
        ("round", 2.5, 2),
        ("round", 3.5, 4),
        ("round", -0.6, -1),
        ("trunc", -3.9, -3),
    ],
)
def test_unary(all_runner: Path, tmp_path: Path, name: str, value: float, expected: float) -> None:
    out = scalar_op(all_runner, tmp_path, f"executorch_prim::{name}.Scalar", [value], np.float64)
    assert out == expected


@pytest.mark.parametrize("name", ["floordiv", "mod", "truediv"])
def test_division_by_zero_fails(all_runner: Path, tmp_path: Path, name: str) -> None:
    with pytest.raises(KernelFailed, match=f"executorch_prim::{name}.Scalar: division by zero"):
        scalar_op(all_runner, tmp_path, f"executorch_prim::{name}.Scalar", [1, 0], np.int64)


def test_non_number_fails(all_runner: Path, tmp_path: Path) -> None:
    with pytest.raises(KernelFailed, match="executorch_prim::add.Scalar"):
        scalar_op(all_runner, tmp_path, "executorch_prim::add.Scalar", [1, None], np.int64)  # type: ignore[list-item]
