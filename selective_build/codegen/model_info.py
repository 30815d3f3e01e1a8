"""build/.models/<model>.info.json as a typed value: a model's methods, each with the number
of its inputs and outputs, and the delegate backends it calls.

Written by the model_ops stage (tasks/models.py); read before anything compiles, to check
a model's reference files against its method (codegen/preflight.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.pte.reader import ModelOps
from selective_build.codegen.stage_file import dump_json, member, parse_json, read_json
from selective_build.codegen.yaml_io import expect, strings

WHAT = "a model information file"


@dataclass(frozen=True)
class MethodSignature:
    name: str
    inputs: int  # values the method takes: one --input file each
    outputs: int  # values it gives: one output file each


@dataclass(frozen=True)
class ModelInfo:
    methods: tuple[MethodSignature, ...]  # in the program's order
    delegates: tuple[str, ...]  # backend ids, sorted

    @staticmethod
    def of(ops: ModelOps) -> ModelInfo:
        methods = zip(ops.methods, ops.arities, strict=True)
        return ModelInfo(
            tuple(MethodSignature(name, inputs, outputs) for name, (inputs, outputs) in methods),
            ops.delegates,
        )

    def method(self, name: str) -> MethodSignature | None:
        return next((method for method in self.methods if method.name == name), None)

    def to_json(self) -> str:
        return dump_json(
            {
                "delegates": list(self.delegates),
                "methods": [
                    {"name": m.name, "inputs": m.inputs, "outputs": m.outputs} for m in self.methods
                ],
            }
        )

    @staticmethod
    def from_json(text: str, source: str | Path) -> ModelInfo:
        return parse_json(text, source, WHAT, _model_info)

    @staticmethod
    def read(path: Path) -> ModelInfo:
        return read_json(path, WHAT, _model_info)


def _model_info(document: object) -> ModelInfo:
    top = expect(document, dict, "top level")
    delegates = strings(member(top, "delegates", "top level"), "delegates")
    methods = []
    for index, item in enumerate(expect(member(top, "methods", "top level"), list, "methods")):
        where = f"methods[{index}]"
        entry = expect(item, dict, where)
        counts = [
            expect(member(entry, key, where), int, f"{where}.{key}")
            for key in ("inputs", "outputs")
        ]
        name = expect(member(entry, "name", where), str, f"{where}.name")
        methods.append(MethodSignature(name, *counts))
    return ModelInfo(tuple(methods), tuple(delegates))
