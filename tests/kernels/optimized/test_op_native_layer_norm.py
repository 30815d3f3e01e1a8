from __future__ import annotations

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList
from tests.kernels.harness import In, KernelRunner, Out
from tests.kernels.optimized.compare import assert_both_fail, assert_matches, random
from tests.kernels.optimized.conftest import Runners

OP = "aten::native_layer_norm.out"


def call(
    shape: tuple[int, ...], k: int, affine: tuple[bool, bool], eps: float = 1e-5, seed: int = 1
) -> list[object]:
    """Normalise the last `k` dims of a random `shape`; weight and/or bias as `affine`."""
    x = random(shape, seed) * np.float32(3.0) + np.float32(1.5)
    normalized = shape[len(shape) - k :]
    stats = shape[: len(shape) - k] + (1,) * k
    w = In(random(normalized, seed + 1)) if affine[0] else None
    b = In(random(normalized, seed + 2)) if affine[1] else None
    outs = [Out(np.float32, shape), Out(np.float32, stats), Out(np.float32, stats)]
    return [In(x), IntList(normalized), w, b, eps, *outs]


@pytest.mark.parametrize("d", [1, 3, 7, 16, 17, 64, 100])
@pytest.mark.parametrize("affine", [(True, True), (True, False), (False, True), (False, False)])
def test_layer_norm_last_dim(
    optimized: KernelRunner, kernel: KernelRunner, d: int, affine: tuple[bool, bool]
) -> None:
    assert_matches(optimized, kernel, OP, call((2, 5, d), 1, affine))


def test_layer_norm_shapes_and_eps(optimized: KernelRunner, kernel: KernelRunner) -> None:
    assert_matches(optimized, kernel, OP, call((4, 3, 9), 2, (True, True)))
    assert_matches(optimized, kernel, OP, call((33,), 1, (True, True), eps=0.5))
    assert_matches(optimized, kernel, OP, call((0, 8), 1, (True, True)))
    # A constant row: variance 0, rstd 1 / sqrt(eps).
    args = call((2, 8), 1, (False, False))
    args[0] = In(np.full((2, 8), 3.0, np.float32))
    assert_matches(optimized, kernel, OP, args)


def test_layer_norm_strided_layout(optimized: KernelRunner, kernel: KernelRunner) -> None:
    # A channels-last input: portable's rows.
    x = random((2, 3, 4, 5), 4)
    stats = (2, 3, 4, 1)
    outs = [Out(np.float32, x.shape), Out(np.float32, stats), Out(np.float32, stats)]
    args = [In(x, (0, 2, 3, 1)), IntList((5,)), In(random((5,), 5)), None, 1e-5, *outs]
    assert_matches(optimized, kernel, OP, args)


def test_layer_norm_errors_are_portables(optimized: KernelRunner, kernel: KernelRunner) -> None:
    args = call((2, 8), 1, (True, True))
    args[1] = IntList((4,))
    assert_both_fail(optimized, kernel, OP, args, "normalized_shape must match")
    args = call((2, 8), 1, (True, True))
    args[2] = In(random((7,), 3))
    assert_both_fail(optimized, kernel, OP, args, "weight and bias must have normalized_shape")


def test_layer_norm_split_over_threads_gives_the_same_bits(runners: Runners) -> None:
    """Rows enough to split (Note [Split elementwise]): a ViT's tokens."""
    args = call((2, 197, 192), 1, (True, True))
    (want_out, _, _) = runners.portable.run(OP, args)
    (got, *_) = runners.optimized.run(OP, args)
    assert runners.threaded is not None
    (threaded, *_) = runners.threaded.run(OP, args)
    assert got.tobytes() == threaded.tobytes()
    np.testing.assert_allclose(got, want_out, rtol=1e-4, atol=1e-4)
