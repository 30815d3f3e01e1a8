"""Constant weights packed once at load (Note [Prepared weights] in
runtime/kernel/kernel_context.h, runtime/executor/prepare.cpp, and the optimized matrix
products' side of it, kernels/optimized/prepared_gemm.h).

The optimized-first include-all runner has the optimized mm, bmm and addmm, so it is built
with preparation. Each program runs three times (`--iterations 3`): a weight prepared that
should not have been shows up as an output that goes stale from run to run or differs from
numpy's. The runner's line `weights prepared at load: N B` says what was packed: the
packed matrices (whole panels of the microkernel, Note [sgemm microkernel]) plus 135 bytes
per call (a 64-byte header, the size and the alignment to 64).
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.isa import best_level
from selective_build.codegen.pte.writer import IntList, Method, Tensor, save_program
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.conftest import all_runner, optimized_runner, threaded_runner
from tests.runtime.timed_runs import call, reported_bytes, run_iterations
from tests.workspace import REPO

__all__ = ["all_runner", "optimized_runner", "threaded_runner"]

F = ScalarType.Float
# (kMR, kNR) of the microkernel the test runners were compiled for: the host toolchain's
# isa is this machine's best level (Note [Instruction sets], codegen/isa.py).
MR, NR = {"x86-64-v4": (14, 32), "x86-64-v3": (6, 16)}.get(best_level(), (6, 8))
PER_CALL = 135


def panels(extent: int, width: int) -> int:
    return -(-extent // width)


def packed_b(depth: int, cols: int) -> int:
    return panels(cols, NR) * NR * depth * 4 + PER_CALL


# The panel heights gemm_packed.h's panel_height picks for the row counts below (Note
# [Balanced row panels]): with AVX-512, 20 rows as 8 + 8 + 4, 3 in one panel of 8.
HEIGHT = {20: 8, 3: 8} if MR == 14 else {}


def packed_a(rows: int, depth: int) -> int:
    height = HEIGHT.get(rows, MR)
    return panels(rows, height) * height * depth * 4 + PER_CALL


def run(
    runner: Path, tmp_path: Path, program: Path, inputs: list[np.ndarray], outputs: int
) -> tuple[int, list[np.ndarray]]:
    """The bytes the runner prepared and the outputs of its last of three runs."""
    stdout, arrays = run_iterations(runner, program, inputs, outputs, tmp_path)
    return reported_bytes(stdout, "weights prepared at load"), arrays


def integers(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Values -3..3: every sum below is exact, so any order gives numpy's bits."""
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float32)


def save(tmp_path: Path, method: Method) -> Path:
    program = tmp_path / "program.pte"
    save_program([method], program)
    return program


def test_mlp_example_packs_both_folded_weights(optimized_runner: Path, tmp_path: Path) -> None:
    # Two Linear layers, 16 -> 32 -> 4: permute_copy of each weight is folded, then each
    # addmm packs the folded transpose as its b.
    model = REPO / "examples" / "models" / "mlp"
    prepared, (out,) = run(
        optimized_runner, tmp_path, model / "mlp.pte", [np.load(model / "in0.npy")], 1
    )
    assert prepared == packed_b(16, 32) + packed_b(32, 4)
    np.testing.assert_allclose(out, np.load(model / "out0.npy"), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("n", "k", "m"), [(1, 5, 3), (17, 40, 70), (3, 300, 33)])
def test_constant_b_of_mm_and_addmm(
    optimized_runner: Path, tmp_path: Path, n: int, k: int, m: int
) -> None:
    # y1 = x @ W, y2 = bias + x @ W (a Linear: the bias in the GEMM's epilogue).
    w, bias, x = integers((k, m), 1), integers((m,), 2), integers((n, k), 3)
    values = (
        Tensor(F, (k, m), constant=w.tobytes()),
        Tensor(F, (m,), constant=bias.tobytes()),
        Tensor(F, (n, k)),
        Tensor(F, (n, m)),
        Tensor(F, (n, m)),
        1,
    )
    method = Method(
        "forward",
        values,
        (2,),
        (3, 4),
        (
            call("aten::mm.out", 2, 0, 3, 3),
            call("aten::addmm.out", 1, 2, 0, 5, 5, 4, 4),
        ),
    )
    prepared, (y1, y2) = run(optimized_runner, tmp_path, save(tmp_path, method), [x], 2)
    assert prepared == 2 * packed_b(k, m)
    np.testing.assert_array_equal(y1, x @ w)
    np.testing.assert_array_equal(y2, bias + x @ w)


def test_constant_a_and_a_batch_of_constant_b(optimized_runner: Path, tmp_path: Path) -> None:
    # y1 = W @ x (W constant, packed as a), y2 = x3 @ V per batch (V constant, packed as b).
    w, x = integers((20, 9), 4), integers((9, 11), 5)
    v, x3 = integers((3, 9, 40), 6), integers((3, 7, 9), 7)
    values = (
        Tensor(F, (20, 9), constant=w.tobytes()),
        Tensor(F, (9, 11)),
        Tensor(F, (20, 11)),
        Tensor(F, (3, 9, 40), constant=v.tobytes()),
        Tensor(F, (3, 7, 9)),
        Tensor(F, (3, 7, 40)),
    )
    method = Method(
        "forward",
        values,
        (1, 4),
        (2, 5),
        (call("aten::mm.out", 0, 1, 2, 2), call("aten::bmm.out", 4, 3, 5, 5)),
    )
    prepared, (y1, y2) = run(optimized_runner, tmp_path, save(tmp_path, method), [x, x3], 2)
    assert prepared == packed_a(20, 9) + 3 * (packed_b(9, 40) - PER_CALL) + PER_CALL
    np.testing.assert_array_equal(y1, w @ x)
    np.testing.assert_array_equal(y2, x3 @ v)


def test_inputs_and_weights_a_kernel_writes_are_not_prepared(
    optimized_runner: Path, tmp_path: Path
) -> None:
    # y1 = x @ W with W a method input; y2 = x @ V after V += V on every run: packing V at
    # load would keep its first value.
    w, v, x = integers((6, 5), 8), integers((6, 5), 9), integers((4, 6), 10)
    values = (
        Tensor(F, (6, 5)),
        Tensor(F, (6, 5), constant=v.tobytes()),
        Tensor(F, (4, 6)),
        Tensor(F, (4, 5)),
        Tensor(F, (4, 5)),
        1,
    )
    method = Method(
        "forward",
        values,
        (2, 0),
        (3, 4),
        (
            call("aten::mm.out", 2, 0, 3, 3),
            call("aten::add.out", 1, 1, 5, 1, 1),
            call("aten::mm.out", 2, 1, 4, 4),
        ),
    )
    program = save(tmp_path, method)
    prepared, (y1, y2) = run(optimized_runner, tmp_path, program, [x, w], 2)
    assert prepared == 0
    np.testing.assert_array_equal(y1, x @ w)
    np.testing.assert_array_equal(y2, x @ (8 * v))  # doubled on each of the three runs


def test_prepared_products_have_the_same_bits_on_three_threads(
    optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    rng = np.random.default_rng(11)
    w = rng.standard_normal((700, 300)).astype(np.float32)
    x = rng.standard_normal((150, 700)).astype(np.float32)
    values = (
        Tensor(F, (700, 300), constant=w.tobytes()),
        Tensor(F, (150, 700)),
        Tensor(F, (150, 300)),
    )
    method = Method("forward", values, (1,), (2,), (call("aten::mm.out", 1, 0, 2, 2),))
    program = save(tmp_path, method)
    (one_dir := tmp_path / "one").mkdir()
    (three_dir := tmp_path / "three").mkdir()
    prepared, (one,) = run(optimized_runner, one_dir, program, [x], 1)
    _, (three,) = run(threaded_runner, three_dir, program, [x], 1)
    assert prepared == packed_b(700, 300)
    assert one.tobytes() == three.tobytes()
    np.testing.assert_allclose(one, x @ w, rtol=1e-4, atol=1e-3)


def test_a_grouped_convolution_packs_each_group_s_weight(
    optimized_runner: Path, all_runner: Path, tmp_path: Path
) -> None:
    # 3x3, padding 1, two groups of 2 -> 3 channels, with a bias: each group's (3, 18)
    # weight matrix packed as a; the same bits as portable's loops (exact sums).
    x, w, bias = integers((1, 4, 9, 9), 12), integers((6, 2, 3, 3), 13), integers((6,), 14)
    values = (
        Tensor(F, (1, 4, 9, 9)),
        Tensor(F, (6, 2, 3, 3), constant=w.tobytes()),
        Tensor(F, (6,), constant=bias.tobytes()),
        1,
        0,
        IntList((3, 3)),
        IntList((4, 4)),
        False,
        2,
        Tensor(F, (1, 6, 9, 9)),
    )
    conv = call("aten::convolution.out", 0, 1, 2, 5, 5, 5, 7, 6, 8, 9, 9)
    program = save(tmp_path, Method("forward", values, (0,), (9,), (conv,)))
    (fast_dir := tmp_path / "fast").mkdir()
    prepared, (fast,) = run(optimized_runner, fast_dir, program, [x], 1)
    assert prepared == 2 * (packed_a(3, 18) - PER_CALL) + PER_CALL
    command = [str(all_runner), str(program), "--input", str(fast_dir / "in0.npy")]
    subprocess.run([*command, "--output-dir", str(tmp_path)], check=True, timeout=120)
    np.testing.assert_array_equal(fast, np.load(tmp_path / "output0.npy"))


def test_a_weight_made_from_constants_is_made_once(optimized_runner: Path, tmp_path: Path) -> None:
    # y = bias + x @ (dequantize(Wq) as float)^T, as PT2E writes a Linear; Wq's values
    # times the scale are exact, so y is numpy's to the bit.
    wq = np.random.default_rng(15).integers(-127, 128, (5, 7)).astype(np.int8)
    bias, x = integers((5,), 16), integers((3, 7), 17)
    values = (
        Tensor(ScalarType.Char, (5, 7), constant=wq.tobytes()),
        0.5,  # 1: scale
        0,  # 2: zero point
        -127,  # 3
        127,  # 4
        ScalarType.Char.number,  # 5: dtype
        None,  # 6: out_dtype
        Tensor(F, (5, 7)),  # 7: the dequantized weight
        IntList((9, 2)),  # 8: dims [1, 0]
        1,  # 9
        Tensor(F, (7, 5)),  # 10: its transpose
        Tensor(F, (5,), constant=bias.tobytes()),  # 11
        Tensor(F, (3, 7)),  # 12: x
        Tensor(F, (3, 5)),  # 13: y
    )
    method = Method(
        "forward",
        values,
        (12,),
        (13,),
        (
            call("quantized_decomposed::dequantize_per_tensor.out", 0, 1, 2, 3, 4, 5, 6, 7, 7),
            call("aten::permute_copy.out", 7, 8, 10, 10),
            call("aten::addmm.out", 11, 12, 10, 9, 9, 13, 13),
        ),
    )
    prepared, (y,) = run(optimized_runner, tmp_path, save(tmp_path, method), [x], 1)
    assert prepared == packed_b(7, 5)
    np.testing.assert_array_equal(y, bias + x @ (0.5 * wq.astype(np.float32)).T)


def advised_huge(pid: int) -> int:
    """Bytes of the process's mappings advised MADV_HUGEPAGE (`hg` in their VmFlags)."""
    advised, size = 0, 0
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        if line.startswith("Size:"):
            size = int(line.split()[1]) * 1024
        elif line.startswith("VmFlags:") and "hg" in line.split()[1:]:
            advised += size
    return advised


@pytest.mark.skipif(
    not Path("/sys/kernel/mm/transparent_hugepage").exists(),
    reason="the kernel has no transparent huge pages to advise",
)
def test_a_real_models_planned_buffers_are_advised_for_huge_pages(
    optimized_runner: Path,
) -> None:
    """Note [Huge pages] (runtime/core/arena.cpp): MobileNetV2's planned activations, some
    megabytes, are mapped apart and advised, while the runner runs them."""
    model = REPO / "examples" / "models" / "mobilenet_v2"
    command = [optimized_runner, model / "mobilenet_v2.pte", "--input", model / "in0.npy"]
    runner = subprocess.Popen(
        [*command, "--iterations", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120  # loading takes well under a second
    try:
        advised = 0
        while advised == 0 and runner.poll() is None and time.monotonic() < deadline:
            with contextlib.suppress(OSError):  # it may end between the poll and the read
                advised = advised_huge(runner.pid)
            time.sleep(0.01)
    finally:
        runner.kill()
        _, stderr = runner.communicate()
    assert advised >= 2 << 20, stderr
