"""The C reader of kernel calls and its numpy fallback agree: the same keys for every
example, and on mutated programs (the fuzzer's mutations) the same outcome: equal results,
or an error from both (the fault named may differ when a program has several)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.pte import ModelOps, native, read_model_ops
from tests.conftest import EXAMPLE_MODELS
from tests.fuzz.harness import examples
from tests.fuzz.mutate import mutate_program

C_READER = native.MODULE


def both(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[ModelOps | str]:
    """The C reader's and the fallback's outcome: the result, or 'error' (one line)."""
    outcomes: list[ModelOps | str] = []
    for module in (C_READER, None):
        monkeypatch.setattr(native, "MODULE", module)
        try:
            outcomes.append(read_model_ops(path))
        except InputError as error:
            assert "\n" not in str(error)
            outcomes.append("error")
    return outcomes


def test_the_c_reader_is_built() -> None:
    """pip builds it (setup.py); without it every run reads with numpy (2-3.5x the time)."""
    assert C_READER is not None


@pytest.mark.parametrize("program", sorted(EXAMPLE_MODELS.glob("*/*.pte")), ids=lambda p: p.stem)
def test_every_example_reads_the_same(program: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c_reader, fallback = both(program, monkeypatch)
    assert isinstance(c_reader, ModelOps) and c_reader == fallback


def test_mutated_programs_have_the_same_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = examples()
    programs = [example.program for example in corpus]
    path = tmp_path / "mutated.pte"
    outcomes = {"ok": 0, "error": 0}
    for index in range(300):
        rng = random.Random(f"readers:{index}")
        data, what = mutate_program(rng, rng.choice(programs), programs)
        path.write_bytes(data)
        c_reader, fallback = both(path, monkeypatch)
        assert c_reader == fallback, f"case {index}: {what}"
        outcomes["error" if c_reader == "error" else "ok"] += 1
    assert min(outcomes.values()) > 50, outcomes  # both outcomes are exercised
