"""Quantized calls at load (Note [Quantized calls at load], runtime/executor/quantize_calls.h,
and the optimized library's side, kernels/optimized/quantized_calls.h): on the committed
real PT2E exports, every dequantize -> Linear/convolution [-> relu] -> quantize chain becomes
one int8 GEMM call (the runner's line `calls quantized at load: N, B B`) and the outputs are
the references ExecuTorch's runtime computed, to the bit; on written programs, a chain that
breaks a condition runs as exported.

The optimized-first include-all runner links the quantized library's quantize and the
optimized matrix products and convolution, so it is built with the rewrite. Its toolchain's
isa is this machine's best level, which has no VNNI: the GEMM's panels are 8 columns wide
(Note [int8 GEMM]) whatever the machine.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from codegen.pte.writer import IntList, Method, Tensor, save_program
from codegen.scalar_type import ScalarType
from tests.kernels.conftest import all_runner, optimized_runner
from tests.runtime.timed_runs import call, run_iterations
from tests.workspace import REPO

__all__ = ["all_runner", "optimized_runner"]

F, C = ScalarType.Float, ScalarType.Char
NR = 8
# Per layer: the plan (128 bytes), then per group its PackedB (40) and Requantize (32) and 8
# bytes of alignment, the packed weight and 12 bytes per padded column (sums, multipliers,
# bias).
PLAN, PER_GROUP = 128, 80


def layer_bytes(cols: int, depth: int, groups: int = 1) -> int:
    padded_cols, padded_depth = -(-cols // NR) * NR, -(-depth // 4) * 4
    return PLAN + groups * (PER_GROUP + padded_cols * padded_depth + 12 * padded_cols)


def quantized(stdout: str) -> tuple[int, int]:
    found = re.search(r"^calls quantized at load: (\d+), (\d+) B$", stdout, re.MULTILINE)
    assert found is not None, stdout
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize(
    ("name", "layers"),
    [
        # Three Linear layers 64 -> 256 -> 64 -> 10 (weights per channel).
        ("quant_linear", [(256, 64), (64, 256), (10, 64)]),
        # Two 3x3 convolutions 3 -> 8 -> 16 (per-tensor weights), a Linear head.
        ("quant_conv", None),
        # 3x3 stride 2, 3x3, 1x1, a grouped 3x3 (two groups of 24), a Linear head.
        ("quant_convs", [(16, 27), (32, 144), (48, 32), (24, 216, 2), (10, 3072)]),
    ],
)
def test_real_pt2e_chains_become_int8_calls_with_the_references_bits(
    optimized_runner: Path, tmp_path: Path, name: str, layers: list[tuple[int, ...]] | None
) -> None:
    model = REPO / "examples" / "models" / name
    stdout, (out,) = run_iterations(
        optimized_runner, model / f"{name}.pte", [np.load(model / "in0.npy")], 1, tmp_path
    )
    calls, memory = quantized(stdout)
    if layers is not None:
        assert (calls, memory) == (len(layers), sum(layer_bytes(*layer) for layer in layers))
    else:
        assert calls == 3
    assert "calls fused at load: 0, 0 B" in stdout  # the float chains are gone
    np.testing.assert_array_equal(out, np.load(model / "out0.npy"))


def linear_chain(
    outputs: tuple[int, ...], inputs: tuple[int, ...], constant_weight: bool
) -> Method:
    """q = quantize(relu(bias + dequantize(x) @ dequantize(w)^T)), as PT2E writes a Linear."""
    rng = np.random.default_rng(21)
    wq = rng.integers(-127, 128, (12, 20)).astype(np.int8)
    bias = rng.standard_normal(12).astype(np.float32)
    values = (
        Tensor(C, (3, 20)),  # 0: x
        0.02,  # 1: its scale
        3,  # 2: its zero point
        -128,  # 3
        127,  # 4
        C.number,  # 5
        None,  # 6: out_dtype
        Tensor(F, (3, 20)),  # 7: x dequantized
        Tensor(C, (12, 20), constant=wq.tobytes() if constant_weight else None),  # 8: w
        0.05,  # 9: its scale
        0,  # 10: its zero point
        -127,  # 11
        127,  # 12
        Tensor(F, (12, 20)),  # 13: w dequantized
        IntList((15, 16)),  # 14: dims [1, 0]
        1,  # 15
        0,  # 16
        Tensor(F, (20, 12)),  # 17: its transpose
        Tensor(F, (12,), constant=bias.tobytes()),  # 18
        Tensor(F, (3, 12)),  # 19: the product
        Tensor(F, (3, 12)),  # 20: relu
        0.1,  # 21: out scale
        -5,  # 22: out zero point
        Tensor(C, (3, 12)),  # 23: q
    )
    calls = (
        call("quantized_decomposed::dequantize_per_tensor.out", 0, 1, 2, 3, 4, 5, 6, 7, 7),
        call("quantized_decomposed::dequantize_per_tensor.out", 8, 9, 10, 11, 12, 5, 6, 13, 13),
        call("aten::permute_copy.out", 13, 14, 17, 17),
        call("aten::addmm.out", 18, 7, 17, 15, 15, 19, 19),
        call("aten::relu.out", 19, 20, 20),
        call("quantized_decomposed::quantize_per_tensor.out", 20, 21, 22, 3, 4, 5, 23, 23),
    )
    return Method("forward", values, inputs, outputs, calls)


@pytest.mark.parametrize(
    ("case", "outputs", "inputs", "constant_weight", "rewritten"),
    [
        ("the chain as PT2E writes it", (23,), (0,), True, 1),
        ("x's dequantized value with a second user", (23, 7), (0,), True, 0),
        ("a weight the caller sets", (23,), (0, 8), False, 0),
    ],
)
def test_a_chain_is_rewritten_only_when_every_piece_matches(
    optimized_runner: Path,
    all_runner: Path,
    tmp_path: Path,
    case: str,
    outputs: tuple[int, ...],
    inputs: tuple[int, ...],
    constant_weight: bool,
    rewritten: int,
) -> None:
    program = tmp_path / "program.pte"
    save_program([linear_chain(outputs, inputs, constant_weight)], program)
    rng = np.random.default_rng(22)
    arrays = [rng.integers(-128, 128, (3, 20)).astype(np.int8)]
    if not constant_weight:
        arrays.append(rng.integers(-127, 128, (12, 20)).astype(np.int8))
    (fast := tmp_path / "fast").mkdir()
    stdout, got = run_iterations(optimized_runner, program, arrays, len(outputs), fast)
    assert quantized(stdout)[0] == rewritten, case
    # The float chain on the portable kernels (no rewrite there).
    command = [str(all_runner), str(program), "--output-dir", str(tmp_path)]
    for index in range(len(arrays)):
        command += ["--input", str(fast / f"in{index}.npy")]
    subprocess.run(command, check=True, timeout=120)
    want = [np.load(tmp_path / f"output{i}.npy") for i in range(len(outputs))]
    q, reference = got[0].astype(np.int32), want[0].astype(np.int32)
    # Note [Requantization]: at most one step where the float sum rounds the other way.
    assert np.abs(q - reference).max() <= 1, case
    assert np.count_nonzero(q != reference) <= 1, case
    assert q.min() >= -5  # the relu: nothing below the out's zero point
    for a, b in zip(got[1:], want[1:], strict=True):
        np.testing.assert_array_equal(a, b)
