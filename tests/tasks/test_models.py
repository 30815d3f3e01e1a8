from __future__ import annotations

import json
from pathlib import Path

from selective_build.codegen.model_info import MethodSignature, ModelInfo
from selective_build.codegen.selection import read_selection
from selective_build.tasks.models import write_model_ops
from tests.conftest import example_pte


def test_model_ops_and_delegates_are_recorded(tmp_path: Path) -> None:
    ops, info = tmp_path / "x.ops.yaml", tmp_path / "x.info.json"
    assert write_model_ops(example_pte("xnnpack"), "x", ops, info)
    assert json.loads(info.read_text()) == {
        "delegates": ["XnnpackBackend"],
        "methods": [{"name": "forward", "inputs": 1, "outputs": 1}],
    }
    signature = MethodSignature("forward", 1, 1)
    assert ModelInfo.read(info) == ModelInfo((signature,), ("XnnpackBackend",))
    operators = read_selection(ops).operators
    assert [str(op) for op in operators] == ["aten::cumsum.out"]
    # The model is named as the manifest names it, not by its file (two may share one).
    assert [op.debug_info for op in operators.values()] == [frozenset({"x"})]


def test_bad_model_fails_with_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.pte"
    bad.write_bytes(b"\x00" * 64)
    assert not write_model_ops(bad, "bad", tmp_path / "o.yaml", tmp_path / "o.json")
    assert (
        capsys.readouterr().err
        == f"error: {bad}: not a .pte file: identifier b'\\x00\\x00\\x00\\x00' is not 'ET12'\n"
    )
