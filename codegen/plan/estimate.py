"""What codegen's size estimate is asked (Note [Size estimate], codegen/size/estimate.py):
per kernel bucket, whether the runner compiles that bucket's kernels for every dtype."""

from __future__ import annotations

from codegen.resolution import Resolution
from codegen.size_buckets import kernel_bucket


def every_dtype_buckets(resolution: Resolution, dtype_selective: bool) -> dict[str, bool]:
    """A bucket holds every dtype when the target is not dtype-selective, or when one of its
    kernels' operators is selected with no dtype list (its header selects them all)."""
    every_dtype: dict[str, bool] = {}
    for kernel in resolution.kernels:
        bucket = kernel_bucket(kernel.library, kernel.source)
        every = not dtype_selective or resolution.op_dtypes.get(kernel.op) is None
        every_dtype[bucket] = every_dtype.get(bucket, False) or every
    return every_dtype
