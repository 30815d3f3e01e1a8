"""The kept corpus (tests/fuzz/kept.py): every case the long runs found interesting is
replayed through the reader and the sanitized runner (in persistent drivers) and ends in
success or one line (the libFuzzer corpus: test_fuzz.py's short libFuzzer run starts from
it); and the keeping itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from selective_build.codegen.pte import read_model_ops
from tests.fuzz.harness import check_reader, examples, kept_runner_cases
from tests.fuzz.kept import CORPUS, Keeper, KeptCase, key_shapes, message_class, read_index
from tests.fuzz.persistent import build_driver, fuzz_runner_persistent
from tests.fuzz.sanitized import sanitized_runner


@pytest.mark.parametrize("target", ["reader", "runner"])
def test_the_index_names_every_kept_file(target: str) -> None:
    folder = CORPUS / target
    files = {path.name for path in folder.iterdir() if path.name != "index.json"}
    index = read_index(folder)
    assert files == set(index) and len(files) > 50
    assert all(entry["classes"] for entry in index.values())


def test_the_kept_reader_corpus_reads_or_fails_in_one_line() -> None:
    index = read_index(CORPUS / "reader")
    outcomes = {}
    for file in index:
        outcome, problem, _ = check_reader(CORPUS / "reader" / file)
        assert problem is None, (file, problem)
        outcomes[file] = outcome
    assert {"ok", "error"} <= set(outcomes.values())


def test_the_kept_runner_corpus_runs_or_fails_in_one_line(tmp_path: Path) -> None:
    cases = kept_runner_cases(CORPUS / "runner")
    runner = sanitized_runner()
    stats = fuzz_runner_persistent(
        runner,
        build_driver(runner),
        len(cases),
        0,
        2,
        300.0,
        tmp_path / "findings",
        draw=lambda index: cases[index][1],
    )
    assert stats.cases == len(cases)
    assert not stats.findings, "\n".join(
        f"{cases[f.index][0]}: {f.what}: {f.problem}" for f in stats.findings[:5]
    )
    assert stats.outcomes.get("ok", 0) >= 10 and stats.outcomes.get("error", 0) > 50


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "/tmp/x/program.pte: malformed program: value index -12 is outside the 40 values",
            "FILE: malformed program: value index -N is outside the N values",
        ),
        (
            "runner: /tmp/x/program.pte: operator aten::pe\\xdamute_copy.out is not in this "
            "runner (kernel key v1/6;0,1|6;0,1)",
            "runner: FILE: operator OP is not in this runner",
        ),
        (
            "runner: /tmp/x/program.pte: aten::add.out: argument 'alpha' expects Scalar, got "
            "float[]",
            "runner: FILE: OP: argument '…' expects Scalar, got float[]",
        ),
        (
            "/tmp/x/program.pte: malformed program: operator 'aten::add\\x01.out' is not a valid "
            "ns::name.overload identifier",
            "FILE: malformed program: operator '…' is not a valid OP identifier",
        ),
        (
            "runner: /tmp/x/program.pte: backend Xnn\\x00Backend is not available",
            "runner: FILE: backend B is not available",
        ),
        ("runner: /tmp/x/output3.npy: output dtype", "runner: FILE: output dtype"),
    ],
)
def test_a_message_class_leaves_out_names_and_numbers(message: str, expected: str) -> None:
    assert message_class(message, ["/tmp/x", "/tmp"]) == expected


def test_kernel_key_shapes_are_arity_rank_and_order() -> None:
    program = next(e for e in examples() if e.name == "mixed")
    path = Path(__file__).parents[2] / "examples" / "models" / "mixed" / "mixed.pte"
    assert program.program == path.read_bytes()
    assert key_shapes(read_model_ops(path)) == {"key 4 tensors", "key 3 tensors"}


def _case(seed: int, index: int, size: int) -> KeptCase:
    data = bytes([index % 256]) * size
    return KeptCase(f"{seed}-{index}", (size, seed, index), data, ".pte", {"example": "x"})


def test_the_smallest_case_of_a_class_is_kept_in_any_order(tmp_path: Path) -> None:
    cases = [
        (["a", "b"], _case(1, 5, 30)),
        (["a"], _case(1, 2, 10)),
        (["b"], _case(1, 9, 10)),
        (["c"], _case(2, 1, 10)),
        (["c"], _case(1, 7, 10)),
    ]
    written = []
    for order in range(3):
        keeper = Keeper()
        for classes, case in random.Random(order).sample(cases, len(cases)):
            keeper.offer(classes, case)
        folder = tmp_path / str(order)
        keeper.write(folder)
        written.append({p.name: p.read_bytes() for p in folder.iterdir()})
    assert written[0] == written[1] == written[2]
    index = read_index(tmp_path / "0")
    assert {f: e["classes"] for f, e in index.items()} == {
        "1-2.pte": ["a"],
        "1-9.pte": ["b"],
        "1-7.pte": ["c"],
    }


def test_a_later_run_replaces_only_with_smaller_cases(tmp_path: Path) -> None:
    first = Keeper()
    first.offer(["a", "b"], _case(1, 5, 30))
    first.offer(["c"], _case(1, 6, 30))
    assert first.write(tmp_path) == 2
    second = Keeper()
    second.offer(["a", "b"], _case(1, 3, 10))  # smaller: takes both, 1-5 goes
    second.offer(["c"], _case(1, 8, 40))  # larger: 1-6 stays
    second.offer(["d"], _case(1, 9, 40))  # new class
    assert second.write(tmp_path) == 3  # 1-3 and 1-9 written, 1-5 removed
    index = read_index(tmp_path)
    assert {f: e["classes"] for f, e in index.items()} == {
        "1-3.pte": ["a", "b"],
        "1-6.pte": ["c"],
        "1-9.pte": ["d"],
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == [*sorted(index), "index.json"]
