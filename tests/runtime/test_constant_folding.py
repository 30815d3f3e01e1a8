"""Constant folding at load (Note [Constant folding at load] in runtime/executor/fold.h).

The include-all runner has the layout kernels, so it is built with folding. Each program
runs three times (`--iterations 3`): a call folded that should not have been shows up as
an output that changes from run to run, or one that differs from numpy's. The runner's
line `constants folded at load: N B` says which calls were folded.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

from selective_build.codegen.pte.writer import IntList, JumpFalseCall, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.runtime.timed_runs import call, reported_bytes, run_iterations
from tests.workspace import REPO

W = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5  # the constant weight
X = np.array([[1.0, -2.0, 0.5]], dtype=np.float32)  # the input, times W's transpose
F = ScalarType.Float
# The mlp example's two Linear weights (16->32, 32->4) transposed once, float32.
FOLDED_MLP = (16 * 32 + 32 * 4) * 4


def run(
    runner: Path, tmp_path: Path, method: Method, inputs: list[np.ndarray]
) -> tuple[int, list[np.ndarray]]:
    """The folded bytes the runner reports and the outputs of its last of three runs."""
    program = tmp_path / "program.pte"
    save_program([method], program)
    return run_file(runner, tmp_path, program, inputs, len(method.outputs))


def run_file(
    runner: Path, tmp_path: Path, program: Path, inputs: list[np.ndarray], outputs: int
) -> tuple[int, list[np.ndarray]]:
    stdout, arrays = run_iterations(runner, program, inputs, outputs, tmp_path)
    return reported_bytes(stdout, "constants folded at load"), arrays


# Values shared by the programs below: 0 W (constant), 1 x (input), 2 and 3 the boxed dims
# [1, 0], 4 the IntList, 5..9 planned (3, 2) and (1, 2) tensors, 10 alpha.
VALUES = (
    Tensor(F, (2, 3), constant=W.tobytes()),
    Tensor(F, (1, 3)),
    1,
    0,
    IntList((2, 3)),
    Tensor(F, (3, 2)),  # 5: W^T
    Tensor(F, (3, 2)),  # 6: W^T again
    Tensor(F, (1, 2)),  # 7
    Tensor(F, (1, 2)),  # 8
    Tensor(F, (3, 2)),  # 9
    1,  # 10: alpha
)


def test_mlp_example_outputs_unchanged(all_runner: Path, tmp_path: Path) -> None:
    model = REPO / "examples" / "models" / "mlp"
    folded, (out,) = run_file(
        all_runner, tmp_path, model / "mlp.pte", [np.load(model / "in0.npy")], 1
    )
    assert folded == FOLDED_MLP
    np.testing.assert_allclose(out, np.load(model / "out0.npy"), rtol=1e-5, atol=1e-6)


def test_two_permutes_of_one_constant_fold_within_the_cap(all_runner: Path, tmp_path: Path) -> None:
    # P1 = W^T and P2 = W^T fold (48 B: twice the constants, the cap); P3 = P1 + P2 has
    # constant inputs too but would pass the cap, so it runs per inference.
    method = Method(
        "forward",
        VALUES,
        (1,),
        (7, 8),
        (
            call("aten::permute_copy.out", 0, 4, 5, 5),
            call("aten::permute_copy.out", 0, 4, 6, 6),
            call("aten::add.out", 5, 6, 10, 9, 9),
            call("aten::mm.out", 1, 6, 7, 7),
            call("aten::mm.out", 1, 9, 8, 8),
        ),
    )
    folded, (y1, y2) = run(all_runner, tmp_path, method, [X])
    assert folded == 2 * W.nbytes
    np.testing.assert_allclose(y1, X @ W.T, rtol=1e-6)
    np.testing.assert_allclose(y2, X @ (2 * W.T), rtol=1e-6)


def test_an_out_written_again_later_is_not_folded(all_runner: Path, tmp_path: Path) -> None:
    # P = W^T, y1 = x P, then P = P + P, y2 = x P: folding the permute would leave P
    # doubled for the next run.
    method = Method(
        "forward",
        VALUES,
        (1,),
        (7, 8),
        (
            call("aten::permute_copy.out", 0, 4, 5, 5),
            call("aten::mm.out", 1, 5, 7, 7),
            call("aten::add.out", 5, 5, 10, 5, 5),
            call("aten::mm.out", 1, 5, 8, 8),
        ),
    )
    folded, (y1, y2) = run(all_runner, tmp_path, method, [X])
    assert folded == 0
    np.testing.assert_allclose(y1, X @ W.T, rtol=1e-6)
    np.testing.assert_allclose(y2, X @ (2 * W.T), rtol=1e-6)


def test_nothing_is_folded_in_a_chain_with_a_jump(all_runner: Path, tmp_path: Path) -> None:
    values = (*VALUES, True)
    method = Method(
        "forward",
        values,
        (1,),
        (7,),
        (
            JumpFalseCall(len(values) - 1, 1),
            call("aten::permute_copy.out", 0, 4, 5, 5),
            call("aten::mm.out", 1, 5, 7, 7),
        ),
    )
    folded, (y,) = run(all_runner, tmp_path, method, [X])
    assert folded == 0
    np.testing.assert_allclose(y, X @ W.T, rtol=1e-6)


def test_a_call_that_grows_its_constant_runs_per_inference(
    all_runner: Path, tmp_path: Path
) -> None:
    # expand_copy of a (1, 3) constant to (4, 3): its out is four times its input.
    row = np.array([[1.0, 2.0, 3.0]], dtype=np.float32)
    method = Method(
        "forward",
        (
            Tensor(F, (1, 3), constant=row.tobytes()),
            4,
            3,
            IntList((1, 2)),
            False,
            Tensor(F, (4, 3)),
        ),
        (),
        (5,),
        (call("aten::expand_copy.out", 0, 3, 4, 5, 5),),
    )
    folded, (out,) = run(all_runner, tmp_path, method, [])
    assert folded == 0
    np.testing.assert_array_equal(out, np.broadcast_to(row, (4, 3)))


def test_a_kernel_failing_while_folding_fails_the_load(all_runner: Path, tmp_path: Path) -> None:
    values = (Tensor(F, (2, 3), constant=W.tobytes()), 0, 0, IntList((1, 2)), Tensor(F, (2, 3)))
    method = Method("forward", values, (), (4,), (call("aten::permute_copy.out", 0, 3, 4, 4),))
    program = tmp_path / "program.pte"
    save_program([method], program)
    result = subprocess.run(
        [str(all_runner), str(program)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"runner: {program}: aten::permute_copy.out: "), result.stderr


def test_a_constant_a_prim_op_writes_is_not_folded(all_runner: Path, tmp_path: Path) -> None:
    # et_copy_index writes its first argument (the file's W, here), which is not an out:
    # W[1] = x on every run, then P = W^T. Folding the permute would keep W's first value.
    row = np.array([7.0, 8.0, 9.0], dtype=np.float32)
    values = (*VALUES[:5], Tensor(F, (3, 2)), Tensor(F, (3,)))
    method = Method(
        "forward",
        values,
        (6,),
        (5,),
        (
            call("executorch_prim::et_copy_index.tensor", 0, 6, 2),
            call("aten::permute_copy.out", 0, 4, 5, 5),
        ),
    )
    folded, (p,) = run(all_runner, tmp_path, method, [row])
    assert folded == 0
    np.testing.assert_array_equal(p, np.stack([W[0], row]).T)


def test_a_constant_named_as_an_out_is_not_folded(all_runner: Path, tmp_path: Path) -> None:
    # add.out(x, x, out=W) with another tensor as its return slot: the kernel writes its
    # out, the file's W, on every run (W = 2x), so the permute of W must run after it.
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
    values = (*VALUES[:5], Tensor(F, (3, 2)), Tensor(F, (2, 3)), Tensor(F, (2, 3)), 1)
    method = Method(
        "forward",
        values,
        (6,),
        (5,),
        (
            call("aten::add.out", 6, 6, 8, 0, 7),
            call("aten::permute_copy.out", 0, 4, 5, 5),
        ),
    )
    folded, (p,) = run(all_runner, tmp_path, method, [x])
    assert folded == 0
    np.testing.assert_array_equal(p, (2 * x).T)
