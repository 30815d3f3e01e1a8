"""Our YAML emission (`codegen.yaml_emit`) writes PyYAML's bytes or declines, never others."""

from __future__ import annotations

import random

import pytest
import yaml

from selective_build.codegen.selection import Selection
from selective_build.codegen.yaml_emit import dump_plain
from selective_build.codegen.yaml_io import dump_yaml
from tests.conftest import EXAMPLE_MODELS

# Characters that change how PyYAML writes a string: indicators, spaces, digits (numbers,
# dates), quotes, comment marks, a non-ASCII letter.
ALPHABET = "aZy_/.:;,|+-#&*!%@`'\" 0123456789=<~?[]{}>é\t"
WORDS = ["yes", "No", "TRUE", "off", "On", "null", "Null", "y", "n", "~", ".inf", "1e3", "0x1f"]


def pyyaml(document: object) -> str:
    text: str = yaml.safe_dump(document, default_flow_style=False, sort_keys=True)
    return text


def random_string(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(WORDS)
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))


def random_document(rng: random.Random, depth: int = 0) -> dict[str, object]:
    document: dict[str, object] = {}
    for _ in range(rng.randint(0, 4)):
        kind = rng.random()
        if kind < 0.3 and depth < 2:
            value: object = random_document(rng, depth + 1)
        elif kind < 0.6:
            value = [random_string(rng) for _ in range(rng.randint(0, 3))]
        elif kind < 0.8:
            value = rng.random() < 0.5
        else:
            value = random_string(rng)
        document[random_string(rng)] = value
    return document


def test_random_documents_are_pyyamls_bytes_or_declined() -> None:
    rng = random.Random(12)
    written = 0
    for _ in range(20_000):
        document = random_document(rng)
        ours = dump_plain(document)
        if ours is not None:
            written += 1
            assert ours == pyyaml(document), document
    assert written > 2000  # the comparison is not vacuous


@pytest.mark.parametrize(
    "text",
    [
        "aten::add.out",
        "v1/6;0,1|6;0,1",
        "/abs/path/m.pte",
        "build/bench/layered-100000.pte",
        "y",
        "n",
        "a" * 200,
        "_private",
        "key:",
        "a:b",
        "x-y+z",
    ],
)
def test_strings_of_a_selection(text: str) -> None:
    for document in ({text: [text]}, {"k": text}, {"k": {text: False}}):
        ours = dump_plain(document)
        if ours is not None:
            assert ours == pyyaml(document)


def test_long_keys_and_nested_lists_are_left_to_pyyaml() -> None:
    assert dump_plain({"k" * 128: True}) is None
    assert dump_plain({"k": [["a"]]}) is None
    assert dump_plain({"k": [{"a": True}]}) is None
    assert dump_plain({"k": 1}) is None
    assert dump_plain(["a"]) is None
    assert dump_plain({}) == pyyaml({})


def test_selections_of_the_examples_are_written_without_pyyaml() -> None:
    """ExecuTorch's own selected_operators.yaml of every example, read back and written
    again: our emitter writes each (no fallback) with the same bytes."""
    for expected in sorted(EXAMPLE_MODELS.glob("*/selected_operators.yaml")):
        document = yaml.safe_load(expected.read_text())
        assert dump_plain(document) == expected.read_text(), expected
        assert dump_yaml(document) == expected.read_text()


def test_a_selection_with_odd_sources_still_matches_pyyaml() -> None:
    selection = Selection.from_operators([], "x")
    for source in ["with space.pte", "yes", "123", "#hash.pte", "dir/é.pte"]:
        selection = selection | Selection.from_op_dtypes({"aten::add.out": ["Float"]}, source)
    assert selection.to_yaml() == pyyaml(yaml.safe_load(selection.to_yaml()))
