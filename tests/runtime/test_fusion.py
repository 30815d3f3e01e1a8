"""Fusion at load (Note [Fusion at load], runtime/executor/fuse.h) and the optimized max pool
(Note [Max pool in registers]) on programs ExecuTorch's exporter wrote
(tests/runtime/programs/export_prepared.py).

Each program runs three times (`--iterations 3`, outputs of the last run), so a rewrite that
left state behind shows as a wrong output. The runner's line `calls fused at load: N, B B`
says how many chains were fused and the memory they took.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.kernels.conftest import all_runner, optimized_runner, threaded_runner
from tests.kernels.optimized.conftest import level_runner, lower_levels
from tests.runtime.timed_runs import kernel_calls, reported_bytes, run_iterations
from tests.workspace import REPO

__all__ = ["all_runner", "optimized_runner", "threaded_runner"]

PROGRAMS = Path(__file__).resolve().parent / "programs"
_FUSED = re.compile(r"^calls fused at load: (\d+), (\d+) B$", re.MULTILINE)

# conv_chains: stem conv+bn+relu6, depthwise conv+bn (its hardswish is exported decomposed),
# 1x1 conv+bn, conv+relu, conv+clamp, conv+bn+SiLU (sigmoid and mul), conv+sigmoid; the
# residual conv (its out read twice) is not fused.
CHAINS_FUSED = 7
# Folded weights and biases: 8x3x3x3 + 8, 8x1x3x3 + 8, 16x8 + 16 and 16x16x3x3 + 16 floats;
# plus the two outs whose planned memory the exporter shares with their convolution's input
# (free once it ran), moved to memory of their own: the stem's 1x8x16x16 and the
# depthwise's 1x8x8x8.
OWN_OUTS = 4 * (2048 + 512)
FOLDED_BIASES = 4 * (8 + 8 + 16 + 16)
FOLDED_WEIGHTS = 4 * (216 + 72 + 128 + 2304)
# Note [Prepared weights] runs after fusion: the folded weights above are packed (or, the
# depthwise one, copied) at load, each into at least its own bytes, and then released
# (prepare.cpp's release_fused): the fused calls keep their biases alone. Over channels-last
# tensors the GEMM layers do the same (Note [Channels-last GEMM]), and the depthwise one is
# copied as on NCHW ones (Note [Channels-last depthwise]).
CHAINS_BYTES = {
    "conv_chains": FOLDED_BIASES + OWN_OUTS,
    "conv_chains_channels_last": FOLDED_BIASES + OWN_OUTS,
}
PREPARED_AT_LEAST = {"conv_chains": FOLDED_WEIGHTS, "conv_chains_channels_last": FOLDED_WEIGHTS}
# The kernel calls each run makes once the chains are fused (the runner's `kernel calls per
# run`), of 28 and 23 as exported: a chain's activation applied in its epilogue gives the
# bits of its own kernel, so the count is what tells that it was fused.
KERNEL_CALLS = {"conv_chains": 18, "conv_chains_channels_last": 18, "depthwise_chains": 9}


def run(runner: Path, name: str, tmp_path: Path) -> tuple[tuple[int, int] | None, list[np.ndarray]]:
    """(chains fused, bytes), None for a runner without the fusion code, and the outputs of
    the last of three runs of program `name`."""
    arrays = np.load(PROGRAMS / f"{name}.npz")
    inputs = [arrays[k] for k in sorted(k for k in arrays if k.startswith("in"))]
    outputs = sum(1 for k in arrays if k.startswith("out"))
    return run_file(runner, PROGRAMS / f"{name}.pte", inputs, outputs, tmp_path)


def run_file(
    runner: Path, program: Path, inputs: list[np.ndarray], outputs: int, tmp_path: Path
) -> tuple[tuple[int, int] | None, list[np.ndarray]]:
    stdout, arrays = run_iterations(runner, program, inputs, outputs, tmp_path)
    (tmp_path / "stdout.txt").write_text(stdout)
    fused = _FUSED.search(stdout)
    return (int(fused.group(1)), int(fused.group(2))) if fused else None, arrays


def prepared_bytes(folder: Path) -> int:
    """The bytes the runner that wrote into `folder` reported preparing at load."""
    return reported_bytes((folder / "stdout.txt").read_text(), "weights prepared at load")


def expected(name: str) -> list[np.ndarray]:
    arrays = np.load(PROGRAMS / f"{name}.npz")
    return [arrays[f"out{i}"] for i in range(sum(1 for k in arrays if k.startswith("out")))]


@pytest.mark.parametrize("name", ["conv_chains", "conv_chains_channels_last"])
def test_fused_chains_match_eager_and_every_thread_count(
    name: str, optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "three").mkdir()
    fused, (out,) = run(optimized_runner, name, tmp_path / "one")
    threaded_fused, (threaded,) = run(threaded_runner, name, tmp_path / "three")
    assert fused == threaded_fused
    assert fused == (CHAINS_FUSED, CHAINS_BYTES[name])
    assert kernel_calls((tmp_path / "one" / "stdout.txt").read_text()) == KERNEL_CALLS[name]
    assert prepared_bytes(tmp_path / "one") >= PREPARED_AT_LEAST[name]
    assert prepared_bytes(tmp_path / "one") == prepared_bytes(tmp_path / "three")
    assert out.tobytes() == threaded.tobytes()
    # The batch norm fold reorders a product: float rounding, no more.
    np.testing.assert_allclose(out, expected(name)[0], rtol=1e-5, atol=1e-5)


def test_depthwise_chains_fuse_each_epilogue_and_match_eager(
    optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    # Note [Direct depthwise]: relu, SiLU, relu6 and a sigmoid gate applied in registers,
    # 3x3 and 5x5 at strides 1 and 2, interior and border chunks, a plane of 3 rows (on
    # the padded path: six chains); and two 1x1 convolutions -> relu reading their input
    # in place, with a narrow last panel.
    (tmp_path / "one").mkdir()
    (tmp_path / "three").mkdir()
    fused, (out,) = run(optimized_runner, "depthwise_chains", tmp_path / "one")
    threaded_fused, (threaded,) = run(threaded_runner, "depthwise_chains", tmp_path / "three")
    assert fused == threaded_fused
    assert fused is not None and fused[0] == 8
    calls = kernel_calls((tmp_path / "one" / "stdout.txt").read_text())
    assert calls == KERNEL_CALLS["depthwise_chains"]
    assert out.shape == (1, 40, 3, 5)
    assert out.tobytes() == threaded.tobytes()
    np.testing.assert_allclose(out, expected("depthwise_chains")[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("level", lower_levels())
@pytest.mark.parametrize("name", ["conv_chains", "depthwise_chains"])
def test_fused_epilogues_at_the_lower_levels(name: str, level: str, tmp_path: Path) -> None:
    # The AVX2 and baseline branches of the fused epilogues (the GEMM's store, the direct
    # depthwise's registers, the activations' vector code): the same chains fused, the
    # same kernel calls left, eager's values.
    fused, (out,) = run(level_runner(level), name, tmp_path)
    assert fused is not None and fused[0] == {"conv_chains": 7, "depthwise_chains": 8}[name]
    assert kernel_calls((tmp_path / "stdout.txt").read_text()) == KERNEL_CALLS[name]
    np.testing.assert_allclose(out, expected(name)[0], rtol=1e-5, atol=1e-5)


def test_a_runner_without_the_optimized_convolution_fuses_nothing(
    all_runner: Path, tmp_path: Path
) -> None:
    # Without a kernel with a fused entry the fusion code is compiled out (RT_FUSE_CALLS),
    # and the runner reports no fusion line.
    fused, (out,) = run(all_runner, "conv_chains", tmp_path)
    assert fused is None
    assert kernel_calls((tmp_path / "stdout.txt").read_text()) == 28
    np.testing.assert_allclose(out, expected("conv_chains")[0], rtol=1e-5, atol=1e-5)


def test_ceil_mode_max_pools_give_eager_values_and_indices(
    optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    # Three pools return their indices; the fourth's nobody reads, so its call computes the
    # values alone (Note [Unread outs]): one call rewritten, no memory taken.
    (tmp_path / "one").mkdir()
    (tmp_path / "three").mkdir()
    fused, outputs = run(optimized_runner, "max_pool_ceil", tmp_path / "one")
    again, threaded = run(threaded_runner, "max_pool_ceil", tmp_path / "three")
    assert fused == again == (1, 0)
    for got, again, want in zip(outputs, threaded, expected("max_pool_ceil"), strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert got.tobytes() == again.tobytes()


def test_fire_modules_write_their_cats_in_place(
    optimized_runner: Path, threaded_runner: Path, all_runner: Path, tmp_path: Path
) -> None:
    # Note [Cats in place]: the cats of two Fire modules (fire1's second call, fire2) do
    # nothing at run time, their convolutions writing the cat's out, which keeps its planned
    # memory; the cat with an input the sum also reads, the one of the method's input and
    # the one along the rows of a five-channel tensor still run, and so does fire1's first,
    # whose parts are channels last (Note [Channels last]: tests/runtime/test_channels_last.py).
    for folder in ("one", "three", "portable"):
        (tmp_path / folder).mkdir()
    fused, outputs = run(optimized_runner, "fire_cats", tmp_path / "one")
    again, threaded = run(threaded_runner, "fire_cats", tmp_path / "three")
    _, unplaced = run(all_runner, "fire_cats", tmp_path / "portable")
    # Nine convolution -> relu chains (three per Fire module), two cats.
    assert fused is not None and fused == again and fused[0] == 9 + 2
    as_exported = kernel_calls((tmp_path / "portable" / "stdout.txt").read_text())
    assert kernel_calls((tmp_path / "one" / "stdout.txt").read_text()) == as_exported - 9 - 2
    references = expected("fire_cats")
    for got, again, other, want in zip(outputs, threaded, unplaced, references, strict=True):
        assert got.tobytes() == again.tobytes()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(other, want, rtol=1e-5, atol=1e-5)


def test_a_linear_and_its_relu_fuse(
    optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    # The mlp example: addmm (the folded weight) -> relu -> addmm -> softmax; the first
    # addmm and the relu become one call, with the relu applied as each tile's epilogue, and
    # the same bits as the separate relu kernel.
    model = REPO / "examples" / "models" / "mlp"
    inputs = [np.load(model / "in0.npy")]
    (tmp_path / "one").mkdir()
    (tmp_path / "three").mkdir()
    fused, (out,) = run_file(optimized_runner, model / "mlp.pte", inputs, 1, tmp_path / "one")
    again, (threaded,) = run_file(threaded_runner, model / "mlp.pte", inputs, 1, tmp_path / "three")
    assert fused == again
    assert fused is not None and fused[0] == 1
    assert out.tobytes() == threaded.tobytes()
    np.testing.assert_allclose(out, np.load(model / "out0.npy"), rtol=1e-5, atol=1e-6)
