"""Writing ExecuTorch `.pte` programs with the flatbuffers builder: the entry point for writing.

For tests and benchmarks: single-operator programs of any dtype, programs with thousands
of kernel calls, or with hundreds of megabytes of weights. The layout is the exporter's:
the flatbuffer (identifier `ET12`), then, when there is constant data, an `eh00` extended
header and the constant segment aligned to 128 bytes. Every non-constant tensor gets its
own slot in one memory-planned buffer. The program's data types live in
`codegen.pte.program` and are re-exported here, so one import serves a caller.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte import slots
from selective_build.codegen.pte.program import (
    INSTRUCTION_TAGS,
    BoolList,
    DelegateCall,
    DoubleList,
    FreeCall,
    Instruction,
    IntList,
    JumpFalseCall,
    KernelCall,
    Method,
    MoveCall,
    OptionalTensorList,
    Tensor,
    TensorList,
    Value,
)
from selective_build.codegen.pte.region import EXTENDED_HEADER_MAGIC, FILE_IDENTIFIER
from selective_build.codegen.pte.value_builder import TENSOR_ALIGNMENT, ValueBuilder, align

__all__ = [
    "BoolList",
    "DelegateCall",
    "DoubleList",
    "FreeCall",
    "Instruction",
    "IntList",
    "JumpFalseCall",
    "KernelCall",
    "Method",
    "MoveCall",
    "OptionalTensorList",
    "save_program",
    "SEGMENT_ALIGNMENT",
    "Tensor",
    "TENSOR_ALIGNMENT",
    "TensorList",
    "Value",
    "write_program",
]

SEGMENT_ALIGNMENT = 128
_EXTENDED_HEADER_LENGTH = 32


class _ProgramBuilder(ValueBuilder):
    """Builds one program's flatbuffer: its methods' instructions, plans and segments."""

    def instruction(self, instruction: Instruction, op_index: dict[OperatorName, int]) -> int:
        fields: list[tuple[str, int, object]]
        if isinstance(instruction, KernelCall):
            args = self.vector("i", instruction.args)
            kernel = slots.KernelCall
            fields = [
                ("i32", kernel.OP_INDEX, op_index[instruction.op]),
                ("off", kernel.ARGS, args),
            ]
        elif isinstance(instruction, DelegateCall):
            args = self.vector("i", instruction.args)
            delegate = slots.DelegateCall
            fields = [
                ("i32", delegate.DELEGATE_INDEX, instruction.delegate),
                ("off", delegate.ARGS, args),
            ]
        elif isinstance(instruction, MoveCall):
            move = slots.MoveCall
            fields = [
                ("i32", move.MOVE_FROM, instruction.source),
                ("i32", move.MOVE_TO, instruction.destination),
            ]
        elif isinstance(instruction, JumpFalseCall):
            jump = slots.JumpFalseCall
            fields = [
                ("i32", jump.COND_VALUE_INDEX, instruction.condition),
                ("i32", jump.DESTINATION_INSTRUCTION, instruction.destination),
            ]
        else:
            fields = [("i32", slots.FreeCall.VALUE_INDEX, instruction.value)]
        payload = self.table(fields)
        tag = INSTRUCTION_TAGS[type(instruction)]
        return self.table(
            [("u8", slots.Instruction.ARGS_TYPE, tag), ("off", slots.Instruction.ARGS, payload)]
        )

    def method(self, method: Method) -> int:
        operators = list(
            dict.fromkeys(i.op for i in method.instructions if isinstance(i, KernelCall))
        )
        op_index = {op: index for index, op in enumerate(operators)}
        planned = 0
        values = []
        for value in method.values:
            offset = None
            if isinstance(value, Tensor) and value.constant is None:
                offset, planned = planned, planned + align(value.nbytes, TENSOR_ALIGNMENT)
            values.append(self.value(value, offset))
        values_vector = self.offsets(values)
        instructions = self.offsets([self.instruction(i, op_index) for i in method.instructions])
        chain = self.table(
            [
                ("off", slots.Chain.INPUTS, self.vector("i", method.inputs)),
                ("off", slots.Chain.OUTPUTS, self.vector("i", method.outputs)),
                ("off", slots.Chain.INSTRUCTIONS, instructions),
            ]
        )
        operator_tables = []
        for op in operators:
            name = self.fb.CreateString(f"{op.namespace}::{op.name}")
            overload = self.fb.CreateString(op.overload)
            operator_tables.append(
                self.table(
                    [("off", slots.Operator.NAME, name), ("off", slots.Operator.OVERLOAD, overload)]
                )
            )
        delegates = []
        reference_slots, delegate_slots = slots.BackendDelegateDataReference, slots.BackendDelegate
        for backend in method.delegates:
            # Every delegate points at inline data 0 (the program's one empty blob).
            reference = self.table(
                [
                    ("u8", reference_slots.LOCATION, slots.DataLocation.INLINE),
                    ("u32", reference_slots.INDEX, 0),
                ]
            )
            delegates.append(
                self.table(
                    [
                        ("off", delegate_slots.ID, self.fb.CreateString(backend)),
                        ("off", delegate_slots.PROCESSED, reference),
                    ]
                )
            )
        plan = slots.ExecutionPlan
        return self.table(
            [
                ("off", plan.NAME, self.fb.CreateString(method.name)),
                ("off", plan.VALUES, values_vector),
                ("off", plan.INPUTS, self.vector("i", method.inputs)),
                ("off", plan.OUTPUTS, self.vector("i", method.outputs)),
                ("off", plan.CHAINS, self.offsets([chain])),
                ("off", plan.OPERATORS, self.offsets(operator_tables)),
                ("off", plan.DELEGATES, self.offsets(delegates)),
                # Buffer 0 is reserved; buffer 1 holds every planned tensor.
                ("off", plan.NON_CONST_BUFFER_SIZES, self.vector("q", [0, planned])),
            ]
        )

    def program(self, methods: Sequence[Method]) -> bytes:
        plans = self.offsets([self.method(method) for method in methods])
        inline = (
            self.table([("off", slots.BackendDelegateInlineData.DATA, self.vector("B", []))])
            if any(m.delegates for m in methods)
            else None
        )
        segment = self.table(
            [
                ("u64", slots.DataSegment.OFFSET, 0),
                ("u64", slots.DataSegment.SIZE, self.constant_size),
            ]
        )
        subsegments = slots.SubsegmentOffsets
        constant_segment = self.table(
            [
                ("u32", subsegments.SEGMENT_INDEX, 0),
                ("off", subsegments.OFFSETS, self.vector("Q", self.constant_offsets)),
            ]
        )
        program = slots.Program
        fields: list[tuple[str, int, object]] = [
            ("u32", program.VERSION, 0),
            ("off", program.EXECUTION_PLAN, plans),
            ("off", program.SEGMENTS, self.offsets([segment])),
            ("off", program.CONSTANT_SEGMENT, constant_segment),
        ]
        if inline is not None:
            fields.append(("off", program.BACKEND_DELEGATE_DATA, self.offsets([inline])))
        self.fb.Finish(self.table(fields), file_identifier=FILE_IDENTIFIER)
        return bytes(self.fb.Output())


def write_program(methods: Sequence[Method], output: BinaryIO) -> None:
    """Write a `.pte` holding `methods` to `output`."""
    builder = _ProgramBuilder()
    flatbuffer = builder.program(methods)
    if not builder.constant_size:
        output.write(flatbuffer)
        return
    # Insert the extended header after the root offset and identifier; move the root.
    root = struct.unpack_from("<I", flatbuffer, 0)[0] + _EXTENDED_HEADER_LENGTH
    program_size = len(flatbuffer) + _EXTENDED_HEADER_LENGTH
    segment_base = align(program_size, SEGMENT_ALIGNMENT)
    header = EXTENDED_HEADER_MAGIC + struct.pack(
        "<IQQQ", _EXTENDED_HEADER_LENGTH, program_size, segment_base, builder.constant_size
    )
    output.write(
        struct.pack("<I", root)
        + flatbuffer[4:8]
        + header[:_EXTENDED_HEADER_LENGTH]
        + flatbuffer[8:]
    )
    output.write(bytes(segment_base - program_size))
    for chunk in builder.constants:
        output.write(chunk)


def save_program(methods: Sequence[Method], path: Path) -> None:
    """Streamed into a temporary beside `path`, then renamed into place: a write that fails
    (a missing dependency, a full disk, an interrupt) leaves no partial program behind for
    the next run to mistake for a finished one."""
    temporary = path.with_name(f".{path.name}.partial")
    try:
        with temporary.open("wb") as output:
            write_program(methods, output)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
