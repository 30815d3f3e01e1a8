"""numpy references of the quantized kernels' arithmetic (Note [Quantized rounding] in
kernels/quantized/quant_util.h), shared by their kernel tests."""

from __future__ import annotations

import numpy as np

# ScalarType numbers of the `dtype` arguments (the program stores them as Ints).
DTYPE_NUMBER = {np.uint8: 0, np.int8: 1, np.int16: 2, np.int32: 3, np.float16: 5, np.float32: 6}
QUANT_DTYPES = [np.uint8, np.int8, np.int16, np.int32]


def quantize(
    x: np.ndarray, scale: float, zero_point: int, quant_min: int, quant_max: int, dtype: type
) -> np.ndarray:
    """float32 arithmetic, halves to even, clamped; NaN becomes quant_min."""
    inv_scale = np.float32(1.0) / np.float32(scale)
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.float32(zero_point) + np.rint((inv_scale * x).astype(np.float32))
        q = np.where(np.isnan(q), quant_min, np.clip(q, quant_min, quant_max))
    return q.astype(np.int64).astype(dtype)


def dequantize(q: np.ndarray, scale: float, zero_point: int, dtype: type) -> np.ndarray:
    return ((q.astype(np.int64) - zero_point).astype(np.float32) * np.float32(scale)).astype(dtype)


def along(values: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    """Per-channel parameters shaped to broadcast along `axis` of an `ndim`-dim tensor."""
    shape = [1] * ndim
    shape[axis] = values.size
    return values.reshape(shape)


def quantize_per_channel(
    x: np.ndarray,
    scales: np.ndarray,
    zero_points: np.ndarray,
    axis: int,
    quant_min: int,
    quant_max: int,
    dtype: type,
) -> np.ndarray:
    inv_scale = np.float32(1.0) / along(scales.astype(np.float32), axis, x.ndim)
    zero_point = along(zero_points.astype(np.float32), axis, x.ndim)
    q = zero_point + np.rint((inv_scale * x).astype(np.float32))
    return np.clip(q, quant_min, quant_max).astype(np.int64).astype(dtype)


def dequantize_per_channel(
    q: np.ndarray, scales: np.ndarray, zero_points: np.ndarray, axis: int, dtype: type
) -> np.ndarray:
    shifted = q.astype(np.int64) - along(zero_points.astype(np.int64), axis, q.ndim)
    return (shifted.astype(np.float32) * along(scales.astype(np.float32), axis, q.ndim)).astype(
        dtype
    )


def choose_qparams(low: float, high: float, qmin: int, qmax: int) -> tuple[float, int]:
    """ExecuTorch's rule (kernels/quantized/qparams.h), in the same float/double steps."""
    f32 = np.float32
    low_f, high_f = min(f32(low), f32(0)), max(f32(high), f32(0))
    steps = float(qmax - qmin)
    scale = (float(high_f) - float(low_f)) / steps
    if f32(scale) == 0 or np.isinf(f32(1) / f32(scale)):
        scale = 0.1
    smallest = f32(6.1e-5)
    if scale < smallest:
        original = f32(scale)
        scale = float(smallest)
        if low_f == 0:
            high_f = smallest * f32(steps)
        elif high_f == 0:
            low_f = -smallest * f32(steps)
        else:
            amplifier = smallest / original
            low_f, high_f = low_f * amplifier, high_f * amplifier
    from_min, from_max = qmin - float(low_f) / scale, qmax - float(high_f) / scale
    min_error = abs(qmin) - abs(float(low_f) / scale)
    max_error = abs(qmax) - abs(float(high_f) / scale)
    initial = from_min if min_error < max_error else from_max
    if initial < qmin:
        return scale, qmin
    if initial > qmax:
        return scale, qmax
    return scale, int(np.rint(f32(initial)))


def unpack(weight: np.ndarray, bits: int) -> np.ndarray:
    """Packed rows to int32 values: 4-bit high nibble first, minus 8; 2-bit lowest pair
    first, minus 2; 8-bit as stored."""
    if bits == 8:
        return weight.astype(np.int32)
    per_byte = 8 // bits
    shifts = [4, 0] if bits == 4 else [0, 2, 4, 6]
    mask = (1 << bits) - 1
    fields = [(weight.astype(np.int32) >> shift) & mask for shift in shifts]
    values = np.stack(fields, axis=-1).reshape(weight.shape[0], weight.shape[1] * per_byte)
    return values - (1 << (bits - 1))


def embedding(
    weight: np.ndarray,
    scales: np.ndarray,
    zero_points: np.ndarray | None,
    indices: np.ndarray,
    bits: int,
    dtype: type,
) -> np.ndarray:
    values = unpack(weight, bits).astype(np.float32)
    groups = scales.shape[1] if scales.ndim == 2 else 1
    group_size = values.shape[1] // groups

    def spread(params: np.ndarray) -> np.ndarray:
        """One parameter per value: each group's repeated over its values."""
        return np.repeat(params.reshape(len(params), groups), group_size, axis=1).astype(np.float32)

    zero = np.zeros((len(scales), values.shape[1]), np.float32)
    if zero_points is not None:
        zero = spread(zero_points)
    table = (values - zero) * spread(scales)
    return table.astype(dtype)[indices]
