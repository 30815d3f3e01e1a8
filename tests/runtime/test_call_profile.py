"""Note [Call profile] (runtime/executor/call_profile.h): a runner built with
-DRT_PROFILE_CALLS prints, after its timing lines, each kernel call's operator, times and
tensor shapes; benchmarks/call_profile.py reads those lines. Runners built without the
define print none."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from tests.kernels.conftest import all_runner
from tests.runtime.timed_runs import kernel_calls, run_iterations
from tests.workspace import REPO, build_in_repository

sys.path.insert(0, str(REPO / "benchmarks"))
import call_profile  # noqa: E402

__all__ = ["all_runner"]

MLP = REPO / "examples" / "models" / "mlp"
# The mlp example on the optimized library with the profile compiled in: its first addmm
# and relu are fused at load into one call (Note [Fusion at load]), which is timed at the
# addmm's instruction; the relu's instruction runs nothing and has no line.
MANIFEST = f"""[toolchains.profiled]
compiler = "c++"
cflags = ["-Os", "-DRT_PROFILE_CALLS"]
strip = "strip"

[models.mlp]
path = "{MLP / "mlp.pte"}"

[targets.profiled]
models = ["mlp"]
libraries = ["optimized", "portable", "prim"]
toolchain = "profiled"
"""


def test_each_kernel_call_is_timed_with_its_operator_and_shapes(tmp_path: Path) -> None:
    runner = build_in_repository("call-profile.toml", MANIFEST, "profiled")
    inputs = [np.load(MLP / "in0.npy")]
    stdout, (out,) = run_iterations(runner, MLP / "mlp.pte", inputs, 1, tmp_path)
    np.testing.assert_allclose(out, np.load(MLP / "out0.npy"), rtol=1e-5, atol=1e-6)
    calls = call_profile.parse_calls(stdout)
    # A line per call each run makes, every one run three times.
    assert len(calls) == kernel_calls(stdout) == stdout.count("\ncall ")
    assert [call.op for call in calls] == [
        "aten::addmm.out",  # with the relu fused in
        "aten::addmm.out",
        "aten::_softmax.out",
    ]
    assert all(call.wall_us >= 0 for call in calls)
    assert all(f"call {call.pc} {call.op} calls 3 " in stdout for call in calls)
    first, second, _ = calls
    # addmm(bias, input, weight^T): 3 x 16 times 16 x 32, then 3 x 32 times 32 x 4.
    assert first.shapes == ((32,), (3, 16), (16, 32), (3, 32), (3, 32))
    assert first.multiply_adds == 3 * 16 * 32
    assert second.multiply_adds == 3 * 32 * 4
    assert first.shape_text() == "32 3x16 16x32 3x32"


def test_a_runner_built_without_it_prints_no_call_lines(all_runner: Path, tmp_path: Path) -> None:
    stdout, _ = run_iterations(all_runner, MLP / "mlp.pte", [np.load(MLP / "in0.npy")], 1, tmp_path)
    assert "mean time per run" in stdout
    assert call_profile.parse_calls(stdout) == []
    assert "\ncall " not in stdout


def test_convolutions_are_classed_and_counted() -> None:
    line = "call 8 aten::convolution.out calls 2 wall_us 2.0 [1,96,112,112] {} [96] {}"
    depthwise, pointwise, stem = (
        call_profile.parse_calls(line.format(w, o))[0]
        for w, o in [
            ("[96,1,3,3]", "[1,96,56,56]"),
            ("[24,96,1,1]", "[1,24,112,112]"),
            ("[32,96,3,3]", "[1,32,56,56]"),
        ]
    )
    assert depthwise.kind == "convolution, depthwise"
    assert depthwise.multiply_adds == 96 * 56 * 56 * 9
    assert pointwise.kind == "convolution, 1x1"
    assert pointwise.multiply_adds == 24 * 112 * 112 * 96
    assert stem.kind == "convolution, k x k"
    assert stem.multiply_adds == 32 * 56 * 56 * 96 * 9
    assert call_profile.parse_calls("call 1 aten::relu.out calls x") == []


def test_xnnpack_s_layers_are_paired_with_ours_in_order() -> None:
    lines = [
        "call 0 aten::convolution.out calls 1 wall_us 8.0 [1,3,8,8] [4,3,3,3] [4] "
        "[1,4,8,8] [1,4,8,8]",
        "call 3 aten::relu.out calls 1 wall_us 1.0 [1,4,8,8] [1,4,8,8]",
        "call 4 aten::addmm.out calls 1 wall_us 2.0 [5] [1,256] [256,5] [1,5] [1,5]",
    ]
    calls = call_profile.parse_calls("\n".join(lines))
    ops = [
        call_profile.XnnpackOp("Convolution (NHWC, F32) IGEMM #1", 4.0),
        call_profile.XnnpackOp("Clamp (NC) #1", 0.5),
        call_profile.XnnpackOp("Fully Connected (NC, F32) GEMM #1", 4.0),
    ]
    text = call_profile.comparison(calls, 9.0, ops)
    assert "| Convolution (NHWC, F32) IGEMM | 1 | 4.0 | 47.1 % |" in text
    assert "| 0 | convolution, k x k |" in text and "| 4.0 | 2.00 |" in text
    assert "| 1 | aten::addmm.out |" in text and "| 4.0 | 0.50 |" in text
    # A model whose layers do not pair (a fused or split layer) says so instead.
    assert "not paired" in call_profile.comparison(calls, 9.0, ops[:1])
