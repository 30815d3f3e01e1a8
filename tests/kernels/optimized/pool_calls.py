"""Random Float inputs for the pooling comparisons."""

from __future__ import annotations

import numpy as np


def random_input(shape: tuple[int, ...], seed: int, scale: float = 1.0) -> np.ndarray:
    """Values with ties (rounded to halves) so a max pool's first-maximum rule is exercised."""
    rng = np.random.default_rng(seed)
    return (np.round(rng.standard_normal(shape) * 2) / 2 * scale).astype(np.float32)
