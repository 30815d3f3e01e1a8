"""Distinct values and distinct rows of int64 arrays, as the batch reader needs them.

Rows are packed into one int64 code when their value ranges allow (one `np.unique` over a
vector instead of a row-wise sort of a matrix).
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

# Positions or values of a batch of tables, one int64 per table.
Array: TypeAlias = NDArray[np.int64]


def distinct(values: Array) -> Array:
    """The distinct values, sorted."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    result: Array = ordered[keep]
    return result


def distinct_rows(matrix: Array) -> Array:
    """The distinct rows of `matrix`, sorted."""
    if _fits_one_code(matrix):
        low, spans = _spans(matrix)
        return _decode_rows(distinct(_row_codes(matrix, low, spans)), low, spans)
    return matrix[_distinct_row_order(matrix)[0]]


def distinct_rows_inverse(matrix: Array) -> tuple[Array, Array]:
    """The distinct rows of `matrix` (sorted) and, per row, the index of its distinct row."""
    if _fits_one_code(matrix):
        low, spans = _spans(matrix)
        codes = _row_codes(matrix, low, spans)
        kinds = distinct(codes)
        # Few distinct rows (dtypes and dim orders): a binary search in them is cheaper
        # than sorting the rows with their indices.
        inverse: Array = np.searchsorted(kinds, codes)
        return _decode_rows(kinds, low, spans), inverse
    order, keep = _distinct_row_order(matrix)
    inverse = np.empty(len(matrix), np.int64)
    inverse[order] = np.cumsum(keep) - 1
    rows: Array = matrix[order][keep]
    return rows, inverse


def _decode_rows(codes: Array, low: Array, spans: Array) -> Array:
    """The rows whose codes (`_row_codes`) are `codes`, decoded last column first."""
    rows = np.empty((len(codes), len(spans)), np.int64)
    for column in reversed(range(len(spans))):
        codes, rows[:, column] = np.divmod(codes, spans[column])
        rows[:, column] += low[column]
    return rows


def _distinct_row_order(matrix: Array) -> tuple[Array, NDArray[np.bool_]]:
    """Rows sorted (their order) and which of the sorted rows are the first of their kind."""
    order = np.lexsort(matrix.T[::-1])
    ordered = matrix[order]
    keep = np.ones(len(matrix), bool)
    keep[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return order, keep


def _spans(matrix: Array) -> tuple[Array, Array]:
    low = matrix.min(axis=0) if len(matrix) else np.zeros(matrix.shape[1], np.int64)
    high = matrix.max(axis=0) if len(matrix) else low
    return low, high - low + 1


def _fits_one_code(matrix: Array) -> bool:
    _, spans = _spans(matrix)
    total = 1
    for span in spans.tolist():
        total *= span
    return total < 1 << 62


def _row_codes(matrix: Array, low: Array, spans: Array) -> Array:
    """One integer per row, equal for equal rows (mixed radix over the column ranges)."""
    codes = np.zeros(len(matrix), np.int64)
    for column in range(matrix.shape[1]):
        codes = codes * spans[column] + (matrix[:, column] - low[column])
    return codes
