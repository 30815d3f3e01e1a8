"""The short fuzz run of the test suite, and checks that the harness can find something.

The long run is `python -m tests.fuzz --reader 200000 --runner 100000 --keep tests/fuzz/corpus`
(the commands and figures in benchmarks/RESULTS.md); test_kept.py replays what it kept.
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from tests.fuzz import harness, libfuzzer
from tests.fuzz.harness import (
    RunnerCase,
    check_reader,
    check_runner,
    examples,
    fuzz_reader,
    fuzz_runner,
    reader_case,
    runner_case,
)
from tests.fuzz.kept import CORPUS
from tests.fuzz.layout import walk
from tests.fuzz.mutate import _header_lie, _share, _vtable_lie, mutate_array
from tests.fuzz.sanitized import sanitized_runner

SEED = 20261125
# Generous: these examples read in about 10 ms; a shared-sub-table blow-up takes seconds.
READER_TIME_BOUND = 10.0


# The same cases on every run (one seed): the kept corpus (test_kept.py) replays the cases
# the long runs found interesting, so these draws stay few.
def test_short_reader_run(tmp_path: Path) -> None:
    stats = fuzz_reader(1000, SEED, READER_TIME_BOUND, tmp_path / "findings")
    assert stats.cases == 1000
    assert not stats.findings, "\n".join(
        f"{f.index}: {f.what}: {f.problem}" for f in stats.findings[:5]
    )
    # Both outcomes occur: the mutations reach past the first check and are not all harmless.
    assert stats.outcomes.get("ok", 0) > 50 and stats.outcomes.get("error", 0) > 50, stats.outcomes


def test_short_runner_run(tmp_path: Path) -> None:
    """A process per case (`--per-case`; test_persistent.py runs 1,000 in drivers)."""
    stats = fuzz_runner(sanitized_runner(), 100, SEED, 2, 300.0, tmp_path / "findings")
    assert stats.cases == 100
    assert not stats.findings, "\n".join(
        f"{f.index}: {f.what}: {f.problem}" for f in stats.findings[:5]
    )
    assert stats.outcomes.get("ok", 0) > 5 and stats.outcomes.get("error", 0) > 30, stats.outcomes


def test_short_libfuzzer_run(tmp_path: Path) -> None:
    """The C++ loader under libFuzzer (coverage-guided, ASan+UBSan): every input of the
    kept corpus (tests/fuzz/kept.py) once, then mutations of them."""
    if not libfuzzer.available():
        pytest.skip("clang++ with libFuzzer is not installed (.ci/run installs it)")
    artifacts, kept = tmp_path / "artifacts", CORPUS / "libfuzzer"
    corpora = [tmp_path / "corpus", kept]  # new inputs go to the first
    (tmp_path / "corpus").mkdir()
    result = libfuzzer.run(libfuzzer.build(), corpora, artifacts, SEED, 20000, 300)
    assert result.returncode == 0, result.stderr[-3000:]
    inputs = len(list(kept.iterdir()))
    assert inputs > 20 and f"{inputs} files found in {kept}" in result.stderr, result.stderr[:3000]
    assert "Done " in result.stderr and not list(artifacts.iterdir()), result.stderr[-3000:]


def test_cases_are_reproducible_from_seed_and_index() -> None:
    corpus = examples()
    for index in (0, 1, 977):
        assert reader_case(corpus, SEED, index) == reader_case(corpus, SEED, index)
        assert runner_case(corpus, SEED, index) == runner_case(corpus, SEED, index)
    assert reader_case(corpus, SEED, 0)[1] != reader_case(corpus, SEED + 1, 0)[1]


def test_the_layout_reaches_every_part_of_a_program() -> None:
    program = next(e for e in examples() if e.name == "mlp").program
    layout = walk(program)
    types = {t.type for t in layout.tables}
    for name in (
        "Program",
        "ExecutionPlan",
        "EValue",
        "Tensor",
        "Chain",
        "Instruction",
        "KernelCall",
    ):
        assert name in types, types
    assert layout.header is not None and layout.union_tags and layout.table_vectors


def test_sharing_points_entries_at_one_table() -> None:
    program = next(e for e in examples() if e.name == "mlp").program
    data = bytearray(program)
    what = None
    rng = random.Random(1)
    while what is None or "share" not in what:
        data = bytearray(program)
        what = _share(rng, data, walk(program))
    shared = int(what.rsplit(" ", 1)[1])
    targets = [
        at + struct.unpack_from("<I", data, at)[0] for v in walk(program).table_vectors for at in v
    ]
    assert targets.count(shared) >= 2, what


def test_an_extended_header_lie_changes_only_the_header() -> None:
    program = next(e for e in examples() if e.name == "mlp").program
    data = bytearray(program)
    assert _header_lie(random.Random(3), data, walk(program)) is not None
    changed = [i for i in range(len(program)) if data[i] != program[i]]
    assert changed and all(12 <= i < 40 for i in changed)


def test_a_vtable_lie_after_an_odd_vtable_size() -> None:
    """An earlier mutation may leave a vtable 5 bytes long: no field to lie about (seed 22,
    reader case 103,257 stopped the long run on `randrange` of an empty range)."""
    program = next(e for e in examples() if e.name == "mlp").program
    layout = walk(program)
    for seed in range(40):
        data = bytearray(program)
        for table in layout.tables:
            struct.pack_into("<H", data, table.vtable, 5)
        assert _vtable_lie(random.Random(seed), data, layout) is not None
    assert reader_case(examples(), 22, 103257)[2]


def test_array_mutations_lie_in_the_header() -> None:
    array = next(e for e in examples() if e.name == "add_mul").inputs[0].read_bytes()
    described = {mutate_array(random.Random(i), array)[1].split(" ")[0] for i in range(200)}
    assert {"header", "truncated"} <= described, described


def _fake_runner(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "fake-runner"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    ("script", "outcome", "found"),
    [
        ("echo 'runner: x: bad' >&2; exit 2", "error", False),
        ("exit 0", "ok", False),
        ("printf 'runner: x: a\\nsecond line\\n' >&2; exit 1", "error", True),
        (
            "echo 'x.cpp:3: runtime error: reference binding to null pointer' >&2; exit 1",
            "crash",
            True,
        ),
        ("echo '==1==ERROR: AddressSanitizer: heap-buffer-overflow' >&2; exit 1", "crash", True),
        ("kill -SEGV $$", "crash", True),
        ("printf 'runner: \\033[2J\\n' >&2; exit 2", "error", False),
        ("printf 'runner: \\303\\251\\n' >&2; exit 2", "error", True),
        ("sleep 30", "hang", True),
    ],
)
def test_the_runner_check_tells_findings(
    tmp_path: Path, script: str, outcome: str, found: bool
) -> None:
    example = examples()[0]
    case = RunnerCase(example, example.program, None, b"", 1, "unchanged")
    got, problem = check_runner(
        _fake_runner(tmp_path, script), case, tmp_path / "scratch", timeout=3
    )
    assert got == outcome and (problem is not None) == found, problem


def test_the_reader_check_tells_findings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "program.pte"
    path.write_bytes(b"")
    for raised, finding in [
        (InputError(path, "malformed program: offset out of range"), False),
        (KeyError("x"), True),
        (RecursionError(), True),
        (MemoryError(), True),
    ]:

        def read(_: Path, error: BaseException = raised) -> None:
            raise error

        monkeypatch.setattr(harness, "read_model_ops", read)
        assert (check_reader(path)[1] is not None) == finding, raised
