"""Quantized calls at load (Note [Quantized calls at load], runtime/executor/quantize_calls.h,
and the optimized library's side, kernels/optimized/quantized_calls.h): on the committed
real PT2E exports, every dequantize -> Linear/convolution [-> relu] -> quantize chain becomes
one int8 GEMM call (the runner's line `calls quantized at load: N, B B`) and the outputs are
the references ExecuTorch's runtime computed, to the bit; on written programs, a chain that
breaks a condition runs as exported.

The optimized-first include-all runner links the quantized library's quantize and the
optimized matrix products and convolution, so it is built with the rewrite. Its toolchain's
isa is this machine's best (`x86-64-v4+avx512vnni` where it has VNNI): the GEMM's panels are
16 columns wide with AVX-512, VNNI or not, else 8, and its tiles 8 rows high with AVX-512, else
4 (Note [int8 GEMM]); a convolution's weight is packed as those rows, bytes with VNNI, else
16-bit values (Note [Channel-major convolution]).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from selective_build.codegen.isa import best, best_level
from selective_build.codegen.pte.writer import IntList, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.conftest import all_runner, optimized_runner
from tests.runtime.timed_runs import call, kernel_calls, reported_bytes, run_iterations
from tests.workspace import REPO

__all__ = ["all_runner", "optimized_runner"]

F, C = ScalarType.Float, ScalarType.Char
NR = 16 if best_level() == "x86-64-v4" else 8
MR = 8 if best_level() == "x86-64-v4" else 4
ROW_BYTES = 1 if "avx512vnni" in best() else 2
# Per layer: the plan (128 bytes), then per group its PackedB (40) and Requantize (32) and 8
# bytes of alignment, the packed weight and 12 bytes per padded column (sums, multipliers,
# bias).
PLAN, PER_GROUP = 128, 80
# An int8 residual add's plan: its scales, zero points and range.
ADD_PLAN = 56


def layer_bytes(cols: int, depth: int, groups: int = 1, convolution: bool = True) -> int:
    if cols == 1 and groups > 1:
        # Depthwise (Note [int8 depthwise]): the plan, one Requantize (32), the taps as bytes
        # (8-byte aligned), a multiplier and a bias per channel.
        return PLAN + 32 + -(-groups * depth // 8) * 8 + 8 * groups
    padded_cols, padded_depth = -(-cols // NR) * NR, -(-depth // 4) * 4
    weight = (
        -(-cols // MR) * MR * padded_depth * ROW_BYTES
        if convolution
        else padded_cols * padded_depth
    )
    return PLAN + groups * (PER_GROUP + weight + 12 * padded_cols)


def quantized(stdout: str) -> tuple[int, int]:
    found = re.search(r"^calls quantized at load: (\d+), (\d+) B$", stdout, re.MULTILINE)
    assert found is not None, stdout
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize(
    ("name", "layers"),
    [
        # Three Linear layers 64 -> 256 -> 64 -> 10 (weights per channel).
        ("quant_linear", [(256, 64, 1, False), (64, 256, 1, False), (10, 64, 1, False)]),
        # Two 3x3 convolutions 3 -> 8 -> 16 (per-tensor weights), a Linear head.
        ("quant_conv", None),
        # 3x3 stride 2, 3x3, 1x1, a grouped 3x3 (two groups of 24), a Linear head.
        ("quant_convs", [(16, 27), (32, 144), (48, 32), (24, 216, 2), (10, 3072, 1, False)]),
        # A 3x3 stem, two residual blocks (1x1, depthwise 3x3, then the int8 add of the
        # block's input: each reads one operand from a copy kept at its dequantize, as the
        # planner gave its memory to a later tensor), a Linear head.
        (
            "quant_residual",
            [(10, 27), (10, 10), (1, 9, 10), (10, 10), (1, 9, 10), (10, 490, 1, False)],
        ),
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
        adds = 2 if name == "quant_residual" else 0
        want = sum(layer_bytes(*layer) for layer in layers) + adds * ADD_PLAN
        assert (calls, memory) == (len(layers) + adds, want)
    else:
        assert calls == 3
    # The float chains are gone; quant_conv's float max pool, whose indices nothing reads,
    # is the one call left to fuse (Note [Unread outs]).
    pools = 1 if name == "quant_conv" else 0
    assert f"calls fused at load: {pools}, 0 B" in stdout
    assert reported_bytes(stdout, "weights prepared at load") == 0  # counted above alone
    np.testing.assert_array_equal(out, np.load(model / "out0.npy"))


def linear_chain(
    outputs: tuple[int, ...], inputs: tuple[int, ...], constant_weight: bool, bias: bool = True
) -> Method:
    """q = quantize(relu(bias + dequantize(x) @ dequantize(w)^T)), as PT2E writes a Linear
    (addmm), or without the bias (mm)."""
    rng = np.random.default_rng(21)
    wq = rng.integers(-127, 128, (12, 20)).astype(np.int8)
    row = rng.standard_normal(12).astype(np.float32)
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
        Tensor(F, (12,), constant=row.tobytes()),  # 18: the bias
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
        call("aten::addmm.out", 18, 7, 17, 15, 15, 19, 19)
        if bias
        else call("aten::mm.out", 7, 17, 19, 19),
        call("aten::relu.out", 19, 20, 20),
        call("quantized_decomposed::quantize_per_tensor.out", 20, 21, 22, 3, 4, 5, 23, 23),
    )
    return Method("forward", values, inputs, outputs, calls)


@pytest.mark.parametrize(
    ("case", "outputs", "inputs", "constant_weight", "bias", "rewritten"),
    [
        ("the chain as PT2E writes it", (23,), (0,), True, True, 1),
        ("a Linear without bias (mm)", (23,), (0,), True, False, 1),
        ("x's dequantized value with a second user", (23, 7), (0,), True, True, 0),
        ("a weight the caller sets", (23,), (0, 8), False, True, 0),
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
    bias: bool,
    rewritten: int,
) -> None:
    program = tmp_path / "program.pte"
    save_program([linear_chain(outputs, inputs, constant_weight, bias)], program)
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


class Quantized(NamedTuple):
    """The activations' dtype, the input's and the out's zero points, the dtype's range."""

    dtype: ScalarType
    input_zero: int
    out_zero: int
    low: int
    high: int


CHAR = Quantized(C, 5, -10, -128, 127)
BYTE = Quantized(ScalarType.Byte, 133, 118, 0, 255)


def convolution_chain(
    groups: int,
    stride: int,
    size: int,
    channels: int = 8,
    kernel: int = 3,
    kind: Quantized = CHAR,
) -> Method:
    """q2 = quantize(hardtanh(dequantize(quantize(conv(dequantize(x), dequantize(w)))))), as
    PT2E writes a convolution and the relu6 after it (`channels` in, 8 out, of size x size,
    kernel x kernel, padding kernel // 2)."""
    rng = np.random.default_rng(23 + groups + stride)
    w = rng.integers(-127, 128, (8, channels // groups, kernel, kernel)).astype(np.int8)
    scales = (rng.random(8) * 0.02 + 0.005).astype(np.float32)
    bias = rng.standard_normal(8).astype(np.float32)
    pad = kernel // 2
    side = (size + 2 * pad - kernel) // stride + 1
    out = (1, 8, side, side)
    A = kind.dtype
    values = (
        Tensor(A, (1, channels, size, size)),  # 0: x
        0.03,  # 1
        kind.input_zero,  # 2
        kind.low,  # 3
        kind.high,  # 4
        A.number,  # 5
        None,  # 6
        Tensor(F, (1, channels, size, size)),  # 7: x dequantized
        Tensor(C, w.shape, constant=w.tobytes()),  # 8: w
        Tensor(F, (8,), constant=scales.tobytes()),  # 9: its scales
        Tensor(ScalarType.Long, (8,), constant=np.zeros(8, np.int64).tobytes()),  # 10
        0,  # 11: axis
        -127,  # 12
        127,  # 13
        Tensor(F, w.shape),  # 14: w dequantized
        Tensor(F, (8,), constant=bias.tobytes()),  # 15
        stride,  # 16
        1,  # 17
        0,  # 18
        IntList((16, 16)),  # 19: stride
        IntList((34, 34)),  # 20: padding
        IntList((17, 17)),  # 21: dilation
        False,  # 22: transposed
        IntList((18, 18)),  # 23: output padding
        groups,  # 24
        Tensor(F, out),  # 25: the convolution
        0.05,  # 26: out scale
        kind.out_zero,  # 27: out zero point
        Tensor(A, out),  # 28: q
        Tensor(F, out),  # 29: q dequantized
        0.0,  # 30
        6.0,  # 31
        Tensor(F, out),  # 32: hardtanh
        Tensor(A, out),  # 33: q2
        pad,  # 34
        C.number,  # 35: the weight's dtype
    )
    calls = (
        call(
            "quantized_decomposed::dequantize_per_channel.out", 8, 9, 10, 11, 12, 13, 35, 6, 14, 14
        ),
        call("quantized_decomposed::dequantize_per_tensor.out", 0, 1, 2, 3, 4, 5, 6, 7, 7),
        call("aten::convolution.out", 7, 14, 15, 19, 20, 21, 22, 23, 24, 25, 25),
        call("quantized_decomposed::quantize_per_tensor.out", 25, 26, 27, 3, 4, 5, 28, 28),
        call("quantized_decomposed::dequantize_per_tensor.out", 28, 26, 27, 3, 4, 5, 6, 29, 29),
        call("aten::hardtanh.out", 29, 30, 31, 32, 32),
        call("quantized_decomposed::quantize_per_tensor.out", 32, 26, 27, 3, 4, 5, 33, 33),
    )
    return Method("forward", values, (0,), (33,), calls)


@pytest.mark.parametrize(
    ("groups", "stride", "size", "channels", "kernel", "kind"),
    [
        (1, 1, 9, 8, 3, CHAR),
        (1, 2, 9, 8, 3, CHAR),
        (8, 1, 9, 8, 3, CHAR),
        (8, 2, 9, 8, 3, CHAR),
        (8, 1, 45, 8, 3, CHAR),
        (8, 2, 45, 8, 3, CHAR),
        # Note [Channel-major convolution]: 8 channels per group take the depth tap by tap, 6
        # the masked loads per output-row run (rows of 45 and 23 pixels: runs that start and
        # end inside panels), a 1x1 layer the interleaved channel rows (6: a part group of
        # 4); Byte activations add another panel offset.
        (1, 1, 45, 6, 3, CHAR),
        (1, 2, 45, 6, 3, CHAR),
        (1, 1, 45, 6, 1, CHAR),
        (1, 1, 45, 8, 1, BYTE),
        (1, 2, 45, 8, 3, BYTE),
        (1, 1, 45, 6, 3, BYTE),
        (8, 1, 45, 8, 3, BYTE),
    ],
)
def test_a_convolution_and_the_relu6_after_it_become_one_int8_call(
    optimized_runner: Path,
    all_runner: Path,
    tmp_path: Path,
    groups: int,
    stride: int,
    size: int,
    channels: int,
    kernel: int,
    kind: Quantized,
) -> None:
    # groups 1: the GEMM on panels of the input's windows; groups 8 (depthwise): the taps
    # over a padded plane, a vector of outputs at a time (Note [int8 depthwise]): rows of one
    # part vector, and 45-wide rows of whole vectors and a part one.
    program = tmp_path / "program.pte"
    save_program([convolution_chain(groups, stride, size, channels, kernel, kind)], program)
    # Around the zero point, so that few outs are clamped by the relu6.
    x = kind.input_zero + np.random.default_rng(24).integers(-60, 60, (1, channels, size, size))
    x = x.astype(np.int8 if kind.dtype == C else np.uint8)
    (fast := tmp_path / "fast").mkdir()
    stdout, (got,) = run_iterations(optimized_runner, program, [x], 1, fast)
    assert quantized(stdout)[0] == 1
    # The relu6 folded into the int8 call: its dequantize, hardtanh and quantize, which
    # would give the same bits, are no longer called (7 calls as exported).
    assert kernel_calls(stdout) == 1
    command = [str(all_runner), str(program), "--input", str(fast / "in0.npy")]
    subprocess.run([*command, "--output-dir", str(tmp_path)], check=True, timeout=120)
    q, reference = got.astype(np.int32), np.load(tmp_path / "output0.npy").astype(np.int32)
    assert np.abs(q - reference).max() <= 1  # Note [Requantization]
    assert np.count_nonzero(q != reference) <= q.size // 100
    # The relu6: from the zero point to 6 quantized (zero + 6 / 0.05); most values between.
    zero = kind.out_zero
    assert q.min() >= zero and q.max() <= zero + 120 and np.count_nonzero(q == zero) > 0
    assert np.count_nonzero((q > zero) & (q < zero + 120)) > q.size // 10


def add_chain(outputs: tuple[int, ...]) -> Method:
    """q = quantize(dequantize(a) + dequantize(b)), as PT2E writes a residual add (70 values:
    a part vector at the end)."""
    shape = (2, 5, 7)
    values = (
        Tensor(C, shape),  # 0: a
        0.03,  # 1: its scale
        4,  # 2: its zero point
        -128,  # 3
        127,  # 4
        C.number,  # 5
        None,  # 6: out_dtype
        Tensor(F, shape),  # 7: a dequantized
        Tensor(C, shape),  # 8: b
        0.05,  # 9
        -7,  # 10
        Tensor(F, shape),  # 11: b dequantized
        1,  # 12: alpha
        Tensor(F, shape),  # 13: the sum
        0.07,  # 14: out scale
        2,  # 15: out zero point
        Tensor(C, shape),  # 16: q
    )
    calls = (
        call("quantized_decomposed::dequantize_per_tensor.out", 0, 1, 2, 3, 4, 5, 6, 7, 7),
        call("quantized_decomposed::dequantize_per_tensor.out", 8, 9, 10, 3, 4, 5, 6, 11, 11),
        call("aten::add.out", 7, 11, 12, 13, 13),
        call("quantized_decomposed::quantize_per_tensor.out", 13, 14, 15, 3, 4, 5, 16, 16),
    )
    return Method("forward", values, (0, 8), outputs, calls)


@pytest.mark.parametrize(
    ("case", "outputs", "rewritten"),
    [
        ("the add as PT2E writes it", (16,), 1),
        ("a's dequantized value with a second user", (16, 7), 0),
    ],
)
def test_an_int8_add_is_one_call_with_the_float_chains_bits(
    optimized_runner: Path,
    all_runner: Path,
    tmp_path: Path,
    case: str,
    outputs: tuple[int, ...],
    rewritten: int,
) -> None:
    program = tmp_path / "program.pte"
    save_program([add_chain(outputs)], program)
    rng = np.random.default_rng(25)
    arrays = [rng.integers(-128, 128, (2, 5, 7)).astype(np.int8) for _ in range(2)]
    (fast := tmp_path / "fast").mkdir()
    stdout, got = run_iterations(optimized_runner, program, arrays, len(outputs), fast)
    assert quantized(stdout) == (rewritten, rewritten * ADD_PLAN), case
    command = [str(all_runner), str(program), "--output-dir", str(tmp_path)]
    for index in range(len(arrays)):
        command += ["--input", str(fast / f"in{index}.npy")]
    subprocess.run(command, check=True, timeout=120)
    for index, array in enumerate(got):
        np.testing.assert_array_equal(array, np.load(tmp_path / f"output{index}.npy"), case)
    assert np.unique(got[0]).size > 50  # values across the range, not one clamp


def test_a_call_whose_outs_are_not_its_return_slot_is_seen_writing_an_operand(
    optimized_runner: Path, all_runner: Path, tmp_path: Path
) -> None:
    """A hostile file: between a's dequantize and the add, neg.out writes a in place while
    its return slot names another value. The rewrite must see that write (pure_out is decided
    at load with the return-slot test, runtime/executor/instructions.cpp), so the result is
    the float chain's, which read a before it was negated."""
    method = add_chain((16,))
    values = (*method.values, Tensor(C, (2, 5, 7)))  # 17: the return slot neg names
    calls = (method.instructions[0], call("aten::neg.out", 0, 0, 17), *method.instructions[1:])
    program = tmp_path / "program.pte"
    save_program([Method("forward", values, method.inputs, method.outputs, calls)], program)
    rng = np.random.default_rng(26)
    arrays = [rng.integers(-127, 128, (2, 5, 7)).astype(np.int8) for _ in range(2)]
    (fast := tmp_path / "fast").mkdir()
    _, (got,) = run_iterations(optimized_runner, program, arrays, 1, fast)
    command = [str(all_runner), str(program), "--output-dir", str(tmp_path)]
    for index in range(len(arrays)):
        command += ["--input", str(fast / f"in{index}.npy")]
    subprocess.run(command, check=True, timeout=120)
    np.testing.assert_array_equal(got, np.load(tmp_path / "output0.npy"))
