"""The prim kernels that read or reshape tensors: sym_size, sym_numel, _local_scalar_dense,
et_view and et_copy_index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList, Tensor
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import ALL, KernelFailed
from tests.kernels.prim_programs import run_program, tensor_to_scalar_op


@pytest.mark.parametrize(("dim", "expected"), [(0, 2), (1, 3), (-1, 4)])
def test_sym_size(all_runner: Path, tmp_path: Path, dim: int, expected: int) -> None:
    x = np.zeros((2, 3, 4), np.float32)
    assert (
        tensor_to_scalar_op(all_runner, tmp_path, "aten::sym_size.int", x, [dim], np.int64)
        == expected
    )


def test_sym_size_bad_dim_fails(all_runner: Path, tmp_path: Path) -> None:
    with pytest.raises(KernelFailed, match="aten::sym_size.int"):
        tensor_to_scalar_op(
            all_runner, tmp_path, "aten::sym_size.int", np.zeros((2,), np.int8), [1], np.int64
        )


def test_sym_numel(all_runner: Path, tmp_path: Path) -> None:
    x = np.zeros((2, 0, 4), np.int8)
    assert tensor_to_scalar_op(all_runner, tmp_path, "aten::sym_numel", x, [], np.int64) == 0
    x = np.zeros((5, 3), np.bool_)
    assert tensor_to_scalar_op(all_runner, tmp_path, "aten::sym_numel", x, [], np.int64) == 15


@pytest.mark.parametrize("dtype", ALL)
def test_local_scalar_dense(all_runner: Path, tmp_path: Path, dtype: type) -> None:
    x = np.array([1 if dtype is np.bool_ else 5], dtype=dtype).reshape(())
    out = tensor_to_scalar_op(all_runner, tmp_path, "aten::_local_scalar_dense", x, [], np.float64)
    assert out == float(x)


def test_local_scalar_dense_keeps_fraction_and_needs_one_element(
    all_runner: Path, tmp_path: Path
) -> None:
    x = np.array([[-2.25]], np.float32)
    assert (
        tensor_to_scalar_op(all_runner, tmp_path, "aten::_local_scalar_dense", x, [], np.float64)
        == -2.25
    )
    with pytest.raises(KernelFailed, match="aten::_local_scalar_dense"):
        tensor_to_scalar_op(
            all_runner, tmp_path, "aten::_local_scalar_dense", np.zeros(2, np.int32), [], np.int64
        )


def test_et_view(all_runner: Path, tmp_path: Path) -> None:
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    values = [
        Tensor(ScalarType.Int, (3, 4)),
        2,
        -1,
        IntList((1, 2)),
        Tensor(ScalarType.Int, (2, 6)),
    ]
    (out,) = run_program(
        all_runner, tmp_path, values, {0: x}, [4], [("executorch_prim::et_view.default", (0, 3, 4))]
    )
    np.testing.assert_array_equal(out, x.reshape(2, 6))


def test_et_view_wrong_numel_fails(all_runner: Path, tmp_path: Path) -> None:
    values = [Tensor(ScalarType.Int, (3, 4)), 5, IntList((1,)), Tensor(ScalarType.Int, (12,))]
    with pytest.raises(KernelFailed, match="executorch_prim::et_view.default"):
        run_program(
            all_runner,
            tmp_path,
            values,
            {0: np.zeros((3, 4), np.int32)},
            [3],
            [("executorch_prim::et_view.default", (0, 2, 3))],
        )


def test_et_view_ambiguous_minus_one_on_empty_fails(all_runner: Path, tmp_path: Path) -> None:
    # torch: a -1 whose other sizes multiply to 0 is ambiguous, even for an empty self.
    values = [
        Tensor(ScalarType.Int, (0, 3)),
        0,
        -1,
        IntList((1, 2)),
        Tensor(ScalarType.Int, (0, 1)),
    ]
    with pytest.raises(KernelFailed, match="size is invalid for self's number of elements"):
        run_program(
            all_runner,
            tmp_path,
            values,
            {0: np.zeros((0, 3), np.int32)},
            [4],
            [("executorch_prim::et_view.default", (0, 3, 4))],
        )


def test_et_copy_index_stacks_into_a_dynamic_tensor(all_runner: Path, tmp_path: Path) -> None:
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = np.array([4.0, 5.0, 6.0], np.float32)
    values = [
        Tensor(ScalarType.Float, (3,)),
        Tensor(ScalarType.Float, (3,)),
        0,
        1,
        Tensor(ScalarType.Float, (4, 3), dynamic=True),
    ]
    calls = [
        ("executorch_prim::et_copy_index.tensor", (4, 0, 2)),
        ("executorch_prim::et_copy_index.tensor", (4, 1, 3)),
    ]
    (out,) = run_program(all_runner, tmp_path, values, {0: a, 1: b}, [4], calls)
    np.testing.assert_array_equal(out, np.stack([a, b]))


def test_et_copy_index_past_capacity_fails(all_runner: Path, tmp_path: Path) -> None:
    values = [Tensor(ScalarType.Float, (3,)), 5, Tensor(ScalarType.Float, (4, 3), dynamic=True)]
    with pytest.raises(KernelFailed, match="executorch_prim::et_copy_index.tensor"):
        run_program(
            all_runner,
            tmp_path,
            values,
            {0: np.zeros(3, np.float32)},
            [2],
            [("executorch_prim::et_copy_index.tensor", (2, 0, 1))],
        )
