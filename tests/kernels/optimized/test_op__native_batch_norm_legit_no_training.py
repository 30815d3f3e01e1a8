"""optimized::_native_batch_norm_legit_no_training_out against portable's: planes of odd
lengths, no affine parameters, a 2-D and a 5-D input, channels-last (the offset walk),
large values and an empty batch."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Both

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::_native_batch_norm_legit_no_training.out"


def _norm(
    both: Both,
    shape: tuple[int, ...],
    *,
    affine: bool = True,
    order: tuple[int, ...] | None = None,
    scale: float = 1.0,
) -> None:
    rng = np.random.default_rng(len(shape) + shape[-1])
    channels = shape[1]
    x = (rng.standard_normal(shape) * scale).astype(np.float32)
    w = rng.standard_normal(channels).astype(np.float32) if affine else None
    b = rng.standard_normal(channels).astype(np.float32) if affine else None
    mean = (rng.standard_normal(channels) * scale).astype(np.float32)
    var = (rng.uniform(0.5, 2.0, channels) * scale * scale).astype(np.float32)
    args = [In(x, order), In(w) if w is not None else None, In(b) if b is not None else None]
    args += [In(mean), In(var), 0.1, 1e-5, Out(np.float32, shape, order)]
    args += [Out(np.float32, (0,)), Out(np.float32, (0,))]
    y, saved_mean, saved_invstd = both.compare(OP, args)
    assert saved_mean.shape == (0,) and saved_invstd.shape == (0,)


@pytest.mark.parametrize("shape", [(2, 3, 7, 9), (1, 5, 1, 1), (3, 4), (1, 2, 3, 5, 7)])
@pytest.mark.parametrize("affine", [True, False])
def test_planes(both: Both, shape: tuple[int, ...], affine: bool) -> None:
    _norm(both, shape, affine=affine)


def test_channels_last_walks_offsets(both: Both) -> None:
    _norm(both, (2, 3, 5, 4), order=(0, 2, 3, 1))


def test_large_values_and_empty_batch(both: Both) -> None:
    _norm(both, (1, 3, 4, 5), scale=1e18)
    _norm(both, (0, 3, 4, 5))


def test_bad_parameters_fail_in_one_line(both: Both) -> None:
    x = np.zeros((1, 3, 2, 2), np.float32)
    short = np.zeros(2, np.float32)
    args = [In(x), None, None, In(short), In(short), 0.1, 1e-5, Out(np.float32, x.shape)]
    args += [Out(np.float32, (0,)), Out(np.float32, (0,))]
    assert_fails(both.optimized, OP, args, "parameters must have one entry per channel")
