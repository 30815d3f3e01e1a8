"""Work and memory reading a program are bounded by its size (issue 13).

Programs whose vectors all point at one shared sub-table are built with the project's own
flatbuffer writer (`codegen.pte.writer._ProgramBuilder`), the way a hostile exporter
could write them: every offset valid, every table well formed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import native, read_model_ops, table
from selective_build.codegen.pte.writer import (
    KernelCall,
    Method,
    Tensor,
    _ProgramBuilder,
    save_program,
)
from selective_build.codegen.scalar_type import ScalarType

REPO = Path(__file__).resolve().parents[2]
ADD = OperatorName.parse("aten::add.out")


def shared_program(
    plans: int, chains: int, instructions: int, distinct_plans: int = 1, operator_entries: int = 1
) -> bytes:
    """`plans` plan entries over `distinct_plans` plan tables, each plan's chains vector
    holding `chains` entries for one chain whose instructions vector holds `instructions`
    entries for one `add.out` call: plans x chains x instructions calls to a naive reader."""
    builder = _ProgramBuilder()
    fb = builder.fb
    values = builder.offsets(
        [builder.value(Tensor(ScalarType.Float, (2,)), 0), builder.value(1, None)]
    )
    args = builder.vector("i", [0, 0, 1, 0, 0])
    call = builder.table([("i32", 0, 0), ("off", 1, args)])
    instruction = builder.table([("u8", 0, 1), ("off", 1, call)])
    chain = builder.table(
        [
            ("off", 0, builder.vector("i", [0])),
            ("off", 1, builder.vector("i", [0])),
            ("off", 2, builder.offsets([instruction] * instructions)),
        ]
    )
    chain_vector = builder.offsets([chain] * chains)
    operator = builder.table(
        [("off", 0, fb.CreateString("aten::add")), ("off", 1, fb.CreateString("out"))]
    )
    operators = builder.offsets([operator] * operator_entries)
    tables = [
        builder.table(
            [
                ("off", 0, fb.CreateString("forward")),
                ("off", 2, values),
                ("off", 5, chain_vector),
                ("off", 6, operators),
            ]
        )
        for _ in range(distinct_plans)
    ]
    plan_vector = builder.offsets([tables[i % distinct_plans] for i in range(plans)])
    fb.Finish(builder.table([("u32", 0, 0), ("off", 1, plan_vector)]), file_identifier=b"ET12")
    return bytes(fb.Output())


@pytest.mark.usefixtures("kernel_call_reader")
def test_shared_sub_tables_are_visited_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """60 plans -> one plan, 60 chains -> one chain, 60 instructions -> one call: a reader
    walking every path visits 216,000 calls; each table is visited once."""
    path = tmp_path / "shared.pte"
    path.write_bytes(shared_program(60, 60, 60))
    visits = 0
    original = table.Table.at.__func__  # type: ignore[attr-defined]

    def counting(cls: type, data: bytes, position: int, what: object) -> object:
        nonlocal visits
        visits += 1
        return original(cls, data, position, what)

    monkeypatch.setattr(table.Table, "at", classmethod(counting))
    ops = read_model_ops(path)
    assert ops.methods == ("forward",) * 60
    assert ops.operators == {ADD: frozenset({KernelKey.parse("v1/6;0|6;0|6;0|6;0")})}
    # The plan entries, each plan's operator and the root: nothing per chain or call.
    assert visits <= 2 * 60 + 10


@pytest.mark.usefixtures("kernel_call_reader")
def test_400_shared_plans_chains_and_instructions_read_at_once(tmp_path: Path) -> None:
    """The issue's 5 KB program (64 million calls to a naive reader) reads like any other."""
    path = tmp_path / "shared400.pte"
    path.write_bytes(shared_program(400, 400, 400))
    assert os.path.getsize(path) < 8000
    ops = read_model_ops(path)
    assert set(ops.operators) == {ADD}


@pytest.mark.usefixtures("kernel_call_reader")
def test_work_beyond_the_file_size_is_one_line(tmp_path: Path) -> None:
    """Distinct plans sharing one long chain: memoising by offset cannot help (each plan
    has its own operators), so the work cap in proportion to the size ends it."""
    path = tmp_path / "plans.pte"
    path.write_bytes(shared_program(1500, 1, 4000, distinct_plans=1500))
    with pytest.raises(InputError) as caught:
        read_model_ops(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: malformed program: reading ")
    assert "shared many times over" in message and "\n" not in message


@pytest.mark.usefixtures("kernel_call_reader")
def test_plans_sharing_a_long_operator_vector_are_one_line(tmp_path: Path) -> None:
    """Each plan's operator names are read one by one: 300 plans sharing one vector of
    20,000 entries are 6 million reads, past the cap for an 90 KB file."""
    path = tmp_path / "operators.pte"
    path.write_bytes(shared_program(300, 1, 1, distinct_plans=300, operator_entries=20_000))
    with pytest.raises(InputError, match="malformed program: reading operators takes more than"):
        read_model_ops(path)


@pytest.mark.usefixtures("kernel_call_reader")
def test_many_distinct_calls_read_in_one_pass(tmp_path: Path) -> None:
    """Every call of a long chain is seen, with each dtype it uses."""
    values: list[object] = [1, Tensor(ScalarType.Float, (2,))]
    calls = []
    for index in range(3000):
        dtype = ScalarType.Long if index == 2999 else ScalarType.Float
        values.append(Tensor(dtype, (2,)))
        calls.append(KernelCall(ADD, (1, len(values) - 1, 0, len(values) - 1, len(values) - 1)))
    path = tmp_path / "long.pte"
    save_program([Method("forward", tuple(values), (1,), (1,), tuple(calls))], path)  # type: ignore[arg-type]
    keys = {str(key) for key in read_model_ops(path).operators[ADD]}
    assert keys == {"v1/6;0|6;0|6;0|6;0", "v1/6;0|4;0|4;0|4;0"}


def test_a_huge_file_without_extended_header_costs_its_flatbuffer(tmp_path: Path) -> None:
    """A 3 GiB (sparse) file whose flatbuffer is small: memory stays small, no whole-file
    read. Measured in a child process, as the peak resident memory the kernel reports."""
    path = tmp_path / "huge.pte"
    path.write_bytes(shared_program(1, 1, 1))
    os.truncate(path, 3 << 30)
    script = textwrap.dedent(
        f"""
        import resource, sys
        from pathlib import Path
        from selective_build.codegen.pte import read_model_ops
        ops = read_model_ops(Path({str(path)!r}))
        assert list(map(str, ops.operators)) == ["aten::add.out"], ops
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    peak_kib = int(result.stdout.strip())
    assert peak_kib < 256 * 1024, f"peak resident memory {peak_kib} KiB"


def test_memory_error_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.pte"
    path.write_bytes(shared_program(1, 1, 1))

    def exhausted(*args: object) -> None:
        raise MemoryError

    monkeypatch.setattr("selective_build.codegen.pte.reader.plan_kernel_keys", exhausted)
    with pytest.raises(InputError, match="too large to read in the memory available$"):
        read_model_ops(path)


def test_programs_longer_than_one_slice_read_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The numpy reader reads calls in slices of instructions; a value used in several
    slices, and keys first seen in a later slice, come out the same as in one pass."""
    monkeypatch.setattr(native, "MODULE", None)
    values: list[object] = [1, Tensor(ScalarType.Float, (2,))]
    calls = []
    for index in range(50):
        dtype = ScalarType.Long if index in (7, 41) else ScalarType.Float
        values.append(Tensor(dtype, (2,)))
        calls.append(KernelCall(ADD, (1, len(values) - 1, 0, len(values) - 1, len(values) - 1)))
    path = tmp_path / "sliced.pte"
    save_program([Method("forward", tuple(values), (1,), (1,), tuple(calls))], path)  # type: ignore[arg-type]
    whole = read_model_ops(path)
    monkeypatch.setattr("selective_build.codegen.pte.batch.SLICE", 3)
    assert read_model_ops(path) == whole
    assert {str(key) for key in whole.operators[ADD]} == {
        "v1/6;0|6;0|6;0|6;0",
        "v1/6;0|4;0|4;0|4;0",
    }
