"""The pooled size avg_pool2d and max_pool2d_with_indices give, for their tests."""

from __future__ import annotations


def pooled_size(size: int, k: int, s: int, p: int, ceil: bool, d: int = 1) -> int:
    """Output length of a window of `k` (dilation `d`), stride `s`, padding `p` over `size`;
    with `ceil` a last partial window counts unless it starts in the right padding."""
    room = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    out = room // s + 1
    if ceil and (out - 1) * s >= size + p:
        out -= 1
    return out
