"""A method's values (`EValue` tables) and the constant data their tensors point at."""

from __future__ import annotations

from selective_build.codegen.pte import slots
from selective_build.codegen.pte.flatbuffer_builder import FlatbufferBuilder
from selective_build.codegen.pte.program import (
    VALUE_TAGS,
    BoolList,
    DoubleList,
    IntList,
    OptionalTensorList,
    Tensor,
    TensorList,
    Value,
)

TENSOR_ALIGNMENT = 16


def align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


class ValueBuilder(FlatbufferBuilder):
    """Values as tables; constant tensor bytes are collected on the side."""

    def __init__(self) -> None:
        super().__init__()
        self.constants: list[bytes] = []
        self.constant_offsets: list[int] = [0]  # entry 0 is the reserved empty buffer
        self.constant_size = 0

    def tensor(self, tensor: Tensor, planned_offset: int | None) -> int:
        dims = len(tensor.sizes)
        dim_order = tensor.dim_order if tensor.dim_order is not None else tuple(range(dims))
        sizes = self.vector("i", tensor.sizes)
        order = self.vector("B", dim_order)
        dynamism = slots.TensorShapeDynamism
        fields: list[tuple[str, int, object]] = [
            ("i8", slots.Tensor.SCALAR_TYPE, tensor.dtype.number),
            ("off", slots.Tensor.SIZES, sizes),
            ("off", slots.Tensor.DIM_ORDER, order),
            (
                "i8",
                slots.Tensor.SHAPE_DYNAMISM,
                dynamism.DYNAMIC_BOUND if tensor.dynamic else dynamism.STATIC,
            ),
        ]
        if tensor.constant is not None:
            if len(tensor.constant) != tensor.nbytes:
                raise ValueError(
                    f"constant holds {len(tensor.constant)} bytes, the tensor needs {tensor.nbytes}"
                )
            fields.append(("u32", slots.Tensor.DATA_BUFFER_IDX, self.add_constant(tensor.constant)))
        elif planned_offset is not None:
            details = slots.AllocationDetails
            allocation = self.table(
                [
                    ("u32", details.MEMORY_ID, 1),
                    ("u32", details.MEMORY_OFFSET_LOW, planned_offset & 0xFFFFFFFF),
                    ("u32", details.MEMORY_OFFSET_HIGH, planned_offset >> 32),
                ]
            )
            fields.append(("off", slots.Tensor.ALLOCATION_INFO, allocation))
        return self.table(fields)

    def add_constant(self, data: bytes) -> int:
        offset = align(self.constant_size, TENSOR_ALIGNMENT)
        if offset > self.constant_size:
            self.constants.append(bytes(offset - self.constant_size))
        self.constants.append(data)
        self.constant_size = offset + len(data)
        self.constant_offsets.append(offset)
        return len(self.constant_offsets) - 1

    def value(self, value: Value, planned_offset: int | None) -> int:
        tag = VALUE_TAGS[type(value)]
        if isinstance(value, Tensor):
            payload = self.tensor(value, planned_offset)
        elif value is None:
            payload = self.table([])
        elif isinstance(value, bool):
            payload = self.table([("bool", slots.PAYLOAD, value)])
        elif isinstance(value, int):
            payload = self.table([("i64", slots.PAYLOAD, value)])
        elif isinstance(value, float):
            payload = self.table([("f64", slots.PAYLOAD, value)])
        elif isinstance(value, str):
            payload = self.table([("off", slots.PAYLOAD, self.fb.CreateString(value))])
        else:
            element = {
                IntList: "q",
                DoubleList: "d",
                BoolList: "?",
                TensorList: "i",
                OptionalTensorList: "i",
            }[type(value)]
            payload = self.table([("off", slots.PAYLOAD, self.vector(element, value.items))])
        return self.table([("u8", slots.EValue.VAL_TYPE, tag), ("off", slots.EValue.VAL, payload)])
