"""verify.json as a typed value: per model of a target, how running it on the runner went.

Written by the verify stage (tasks/verify.py), read by the summary line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from codegen.stage_file import dump_json, member, parse_json, read_json
from codegen.yaml_io import expect

OK = "ok"
FAILED = "failed"
UNVERIFIED = "unverified"  # the model has no reference outputs to compare with
NOT_VERIFIED = "not verified"  # the runner cannot run here (another processor, no emulator)
# A library-only target's models only select its operators: there is no runner to run them.
LIBRARY_ONLY = "library only"
STATUSES = (OK, FAILED, UNVERIFIED, NOT_VERIFIED, LIBRARY_ONLY)

WHAT = "a verification file"


@dataclass(frozen=True)
class ModelResult:
    status: str  # one of STATUSES
    detail: str | None = None  # why, for every status but ok


@dataclass(frozen=True)
class Verification:
    models: Mapping[str, ModelResult]  # model name -> its result

    @property
    def passed(self) -> bool:
        """No model failed (a model that could not run did not fail)."""
        return all(result.status != FAILED for result in self.models.values())

    def phrase(self) -> str:
        """`2/3 models verified`, `no models` or `not verified`: the summary line's part."""
        results = self.models.values()
        if any(result.status == NOT_VERIFIED for result in results):
            return NOT_VERIFIED
        if not results:
            return "no models"
        verified = sum(result.status == OK for result in results)
        return f"{verified}/{len(results)} models verified"

    def to_json(self) -> str:
        return dump_json(
            {
                "models": {
                    name: {"status": r.status} | ({} if r.detail is None else {"detail": r.detail})
                    for name, r in sorted(self.models.items())
                }
            }
        )

    @staticmethod
    def from_json(text: str, source: str | Path) -> Verification:
        return parse_json(text, source, WHAT, _verification)

    @staticmethod
    def read(path: Path) -> Verification:
        return read_json(path, WHAT, _verification)


def _verification(document: object) -> Verification:
    top = expect(document, dict, "top level")
    models = {}
    for name, item in expect(member(top, "models", "top level"), dict, "models").items():
        where = f"models.{name!r}"
        entry = expect(item, dict, where)
        status = expect(member(entry, "status", where), str, f"{where}.status")
        if status not in STATUSES:
            raise ValueError(f"{where}.status: {status!r} is not one of {', '.join(STATUSES)}")
        detail = entry.get("detail")
        models[name] = ModelResult(
            status, None if detail is None else expect(detail, str, f"{where}.detail")
        )
    return Verification(models)
