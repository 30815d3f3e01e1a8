"""provenance.json as a typed value: per operator and kernel key, who needs it.

Written by the selection stage beside `selected_operators.yaml` (whose `debug_info` says
only who selected an operator, not with which key); the size report reads it to say which
models and manifest entries brought each kernel in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.stage_file import dump_json, parse_json, read_json
from selective_build.codegen.yaml_io import expect, strings

WHAT = "a provenance file"


@dataclass(frozen=True)
class Provenance:
    """Operator -> kernel key -> the sources (model files, manifest entries) needing it."""

    needs: Mapping[OperatorName, Mapping[KernelKey, frozenset[str]]]

    def sources_of(self, op: OperatorName) -> frozenset[str]:
        """Who needs `op` with any key (nobody, for an operator not selected)."""
        return frozenset().union(*self.needs.get(op, {}).values())

    def to_dict(self) -> dict[str, dict[str, list[str]]]:
        return {
            str(name): {str(key): sorted(sources) for key, sources in sorted(keys.items())}
            for name, keys in sorted(self.needs.items())
        }

    def to_json(self) -> str:
        return dump_json(self.to_dict())

    @staticmethod
    def from_json(text: str, source: str | Path) -> Provenance:
        return parse_json(text, source, WHAT, _provenance)

    @staticmethod
    def read(path: Path) -> Provenance:
        return read_json(path, WHAT, _provenance)


def _provenance(document: object) -> Provenance:
    needs: dict[OperatorName, dict[KernelKey, frozenset[str]]] = {}
    for text, keys in expect(document, dict, "top level").items():
        name = OperatorName.parse(text)
        needs[name] = {
            KernelKey.parse(expect(key, str, repr(text))): frozenset(
                strings(sources, f"{text!r}.{key!r}")
            )
            for key, sources in expect(keys, dict, repr(text)).items()
        }
    return Provenance(needs)
