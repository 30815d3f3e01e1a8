"""The values of an execution plan as kernel keys see them: each value's tensor meta.

Decoded lazily and in batches (`codegen.pte.tables`): only values some kernel call uses
are read, each once.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from selective_build.codegen.model import TensorMeta
from selective_build.codegen.pte.distinct import Array, distinct, distinct_rows_inverse
from selective_build.codegen.pte.slots import PAYLOAD, EValue, ExecutionPlan, KernelTypes, Tensor
from selective_build.codegen.pte.tables import Buffer, Tables
from selective_build.codegen.scalar_type import ScalarType

# A value not decoded yet (decoded: a meta number, or -1 for no tensor).
_UNDECODED = -2


class Metas:
    """Every distinct tensor meta of a program, numbered in order of first sight."""

    def __init__(self) -> None:
        self._metas: list[TensorMeta] = []
        self._ids: dict[TensorMeta, int] = {}

    def id(self, meta: TensorMeta) -> int:
        number = self._ids.get(meta)
        if number is None:
            number = self._ids[meta] = len(self._metas)
            self._metas.append(meta)
        return number

    def meta(self, number: int) -> TensorMeta:
        return self._metas[number]


class Values:
    """The plan's values, decoded only when a kernel call refers to them (Note [Kernel key]).

    A tensor contributes its meta; a tensor list its first present tensor's (lists never
    nest in a program); anything else nothing (-1).
    """

    def __init__(self, buffer: Buffer, plan: Tables, metas: Metas) -> None:
        self._buffer = buffer
        self._metas = metas
        starts, lengths = plan.vectors(ExecutionPlan.VALUES, 4)
        self._start, self.count = int(starts[0]), int(lengths[0])
        self._numbers: NDArray[np.int32] | None = None

    def meta_ids(self, indices: Array) -> Array:
        """The meta number of each value index (-1: no tensor)."""
        self._check(indices)
        # Indexed by value (at most four bytes per value of a vector that fits in the
        # flatbuffer): each value is decoded once, the first time a call uses it.
        if self._numbers is None:
            self._numbers = np.full(self.count, _UNDECODED, np.int32)
        numbers = self._numbers
        wanted = distinct(indices)
        wanted = wanted[numbers[wanted] == _UNDECODED]
        numbers[wanted] = self._decode(wanted, lists=True)
        result: Array = numbers[indices].astype(np.int64)
        return result

    def _check(self, indices: Array) -> None:
        if len(indices) and (int(indices.min()) < 0 or int(indices.max()) >= self.count):
            bad = (indices < 0) | (indices >= self.count)
            raise ValueError(
                f"value index {int(indices[int(bad.argmax())])} is outside the {self.count} values"
            )

    def _decode(self, wanted: Array, lists: bool) -> Array:
        self._check(wanted)
        buffer = self._buffer
        entries = self._start + 4 * wanted
        values = Tables(buffer, entries + buffer.unsigned(entries, 4, "values", "offset"), "value")
        tags = values.scalar(EValue.VAL_TYPE, 1)
        targets = np.where(tags != 0, values.indirect(EValue.VAL), -1)
        ids = np.full(len(wanted), -1, np.int64)
        tensors = (tags == KernelTypes.TENSOR) & (targets >= 0)
        ids[tensors] = self._tensor_ids(Tables(buffer, targets[tensors], "tensor"))
        kinds = (KernelTypes.TENSOR_LIST, KernelTypes.OPTIONAL_TENSOR_LIST)
        chosen = np.isin(tags, kinds) & (targets >= 0)
        if lists and chosen.any():
            ids[chosen] = self._list_ids(Tables(buffer, targets[chosen], "tensor list"))
        return ids

    def _list_ids(self, lists: Tables) -> Array:
        """Each list's first present tensor's meta number."""
        starts, lengths = lists.vectors(PAYLOAD, 4)
        items = self._buffer.signed32(
            self._buffer.elements(starts, lengths, 4, "tensor list items"), "", ""
        )
        present = distinct(items[items >= 0])
        item_ids = self._decode(present, lists=False)
        ids = np.full(len(lengths), -1, np.int64)
        first = (np.cumsum(lengths) - lengths).tolist()
        for index, (begin, count) in enumerate(zip(first, lengths.tolist(), strict=True)):
            for item in items[begin : begin + count].tolist():
                if item >= 0:
                    number = int(item_ids[np.searchsorted(present, item)])
                    if number >= 0:
                        ids[index] = number
                        break
        return ids

    def _tensor_ids(self, tensors: Tables) -> Array:
        """Meta numbers of tensors: dtype and dim order, grouped by rank."""
        dtypes = tensors.scalar(Tensor.SCALAR_TYPE, 1)
        starts, ranks = tensors.vectors(Tensor.DIM_ORDER, 1)
        self._buffer.work.charge(int(ranks.sum()), "dim orders")
        ids = np.empty(len(tensors), np.int64)
        for rank in distinct(ranks).tolist():
            group = ranks == rank
            columns = starts[group][:, None] + np.arange(rank)
            matrix = np.column_stack([dtypes[group], self._buffer.bytes[columns]])
            rows, inverse = distinct_rows_inverse(matrix)
            numbers = [
                self._metas.id(TensorMeta(ScalarType.from_number(row[0]), tuple(row[1:])))
                for row in rows.tolist()
            ]
            ids[group] = np.array(numbers, np.int64)[inverse]
        return ids
