"""MobileNetV3's activations, hardswish and hardsigmoid: numpy references and the values where
their formula changes (the shared part of the portable and the optimized kernels' tests)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

HARDSWISH = "aten::hardswish.out"
HARDSIGMOID = "aten::hardsigmoid.out"


def hardsigmoid(x: np.ndarray) -> np.ndarray:
    return np.clip(x + 3, 0, 6) / 6


def hardswish(x: np.ndarray) -> np.ndarray:
    return x * np.clip(x + 3, 0, 6) / 6


REFERENCES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    HARDSWISH: hardswish,
    HARDSIGMOID: hardsigmoid,
}

# Both saturation points (x + 3 = 0 and x + 3 = 6) and the floats either side, zeros of both
# signs, NaN, infinities (hardswish(+inf) = inf, hardswish(-inf) = -inf * 0 = NaN in torch:
# -inf + 3 clamps to 0, and -inf * 0 is NaN) and the largest finite values.
_POINTS = np.array([-3.0, 3.0], dtype=np.float32)
EDGES = np.concatenate(
    [
        np.array(
            [-0.0, 0.0, 1.0, -1.0, -6.0, 6.0, np.nan, np.inf, -np.inf, 3.4e38, -3.4e38],
            dtype=np.float32,
        ),
        _POINTS,
        np.nextafter(_POINTS, np.float32(-np.inf)),
        np.nextafter(_POINTS, np.float32(np.inf)),
    ]
)
