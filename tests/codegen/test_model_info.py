from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.model_info import MethodSignature, ModelInfo
from selective_build.codegen.pte import read_model_ops
from tests.conftest import example_pte


def test_the_methods_inputs_and_outputs_come_from_the_program() -> None:
    info = ModelInfo.of(read_model_ops(example_pte("add_mul")))
    assert info.methods == (MethodSignature("forward", 2, 1),)
    assert info.method("forward") == MethodSignature("forward", 2, 1)
    assert info.method("nope") is None
    assert ModelInfo.from_json(info.to_json(), "x") == info


def test_a_damaged_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "m.info.json"
    path.write_text('{"delegates": [], "methods": [{"name": "forward", "inputs": "2"}]}')
    with pytest.raises(InputError, match=r"m.info.json: not a model information file: "):
        ModelInfo.read(path)
