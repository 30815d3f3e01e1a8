"""tasks/ reads no stage file as raw JSON or YAML: each file one stage hands to the next
has one codec in codegen/ (a frozen dataclass with to_json/from_json), which the task
modules call."""

from __future__ import annotations

import re

from tests.workspace import REPO

RAW_READ = re.compile(r"\bjson\.loads?\(|\byaml\.(?:safe_)?load\(|\bload_yaml\(")
# The engine's own state (the up-to-date stamp, the digest checker's cache) crosses no stage
# boundary: only the engine writes and reads it.
ENGINE_STATE = {"stamp.py", "checker.py"}


def raw_reads(text: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), 1) if RAW_READ.search(line)]


def test_the_pattern_finds_each_way_of_parsing() -> None:
    text = "a = json.loads(t)\nb = json.load(f)\nc = yaml.safe_load(t)\nd = load_yaml(p)\n"
    assert raw_reads(text) == [1, 2, 3, 4]
    assert raw_reads("Selection.read(path)\nResolutionFile.from_json(text, path)\n") == []


def test_no_task_module_parses_a_stage_file() -> None:
    found = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sorted((REPO / "tasks").rglob("*.py"))
        if path.name not in ENGINE_STATE
        for number in raw_reads(path.read_text(encoding="utf-8"))
    ]
    assert found == []
