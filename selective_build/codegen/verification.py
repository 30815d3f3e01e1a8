"""verify.json as a typed value: per model of a target, how running it on the runner went.

Written by the verify stage (tasks/verify.py), read by the summary line. Each model that
ran and was compared lists its outputs: each one's scale (the largest finite |value| of
its reference) and worst error (the largest |actual - expected|; null when not finite),
Note [Scaled tolerance] in codegen/tolerances.py.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.stage_file import dump_json, member, parse_json, read_json
from selective_build.codegen.yaml_io import expect

OK = "ok"
FAILED = "failed"
# Every output matched, but a reference proves nothing (all zeros, or so small that the
# absolute tolerance alone decides): reported as such, never counted as verified.
DEGENERATE = "degenerate reference"
UNVERIFIED = "unverified"  # the model has no reference outputs to compare with
NOT_VERIFIED = "not verified"  # the runner cannot run here (another processor, no emulator)
# A library-only target's models only select its operators: there is no runner to run them.
LIBRARY_ONLY = "library only"
STATUSES = (OK, FAILED, DEGENERATE, UNVERIFIED, NOT_VERIFIED, LIBRARY_ONLY)

WHAT = "a verification file"


@dataclass(frozen=True)
class OutputError:
    """One output's scale and worst error, as compared with its reference."""

    scale: float
    worst_error: float  # inf: a NaN met a number

    @property
    def relative(self) -> float:
        """The worst error relative to the scale (absolute when the scale is 0)."""
        return self.worst_error / self.scale if self.scale > 0 else self.worst_error


@dataclass(frozen=True)
class ModelResult:
    status: str  # one of STATUSES
    detail: str | None = None  # why, for every status but ok
    outputs: tuple[OutputError, ...] = ()  # the outputs compared, in order


@dataclass(frozen=True)
class Verification:
    models: Mapping[str, ModelResult]  # model name -> its result

    @property
    def passed(self) -> bool:
        """No model failed (a model that could not run did not fail)."""
        return all(result.status != FAILED for result in self.models.values())

    def phrase(self) -> str:
        """`2/3 models verified (worst error 3.1e-07 of scale)` (`(exact)` when every
        output matched exactly), with `, 1 degenerate reference (mlp)` when there is one,
        `no models` or `not verified`: the summary line's part."""
        results = self.models.values()
        if any(result.status == NOT_VERIFIED for result in results):
            return NOT_VERIFIED
        if not results:
            return "no models"
        verified = [result for result in results if result.status == OK]
        text = f"{len(verified)}/{len(results)} models verified"
        errors = [output.relative for result in verified for output in result.outputs]
        if errors:
            worst = max(errors)
            text += f" (worst error {worst:.2g} of scale)" if worst else " (exact)"
        degenerate = sorted(n for n, r in self.models.items() if r.status == DEGENERATE)
        if degenerate:
            plural = "s" if len(degenerate) > 1 else ""
            text += f", {len(degenerate)} degenerate reference{plural} ({', '.join(degenerate)})"
        return text

    def to_json(self) -> str:
        return dump_json({"models": {n: _model_json(r) for n, r in sorted(self.models.items())}})

    @staticmethod
    def from_json(text: str, source: str | Path) -> Verification:
        return parse_json(text, source, WHAT, _verification)

    @staticmethod
    def read(path: Path) -> Verification:
        return read_json(path, WHAT, _verification)


def _model_json(result: ModelResult) -> dict[str, object]:
    document: dict[str, object] = {"status": result.status}
    if result.detail is not None:
        document["detail"] = result.detail
    if result.outputs:
        document["outputs"] = [
            {
                "scale": _short(output.scale),
                "worst_error": _short(output.worst_error)
                if math.isfinite(output.worst_error)
                else None,
            }
            for output in result.outputs
        ]
    return document


def _short(value: float) -> float:
    """`value` to 6 significant digits: what a reader compares, in a stable text."""
    return float(f"{value:.6g}")


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
        outputs = tuple(
            _output(output, f"{where}.outputs[{index}]")
            for index, output in enumerate(
                expect(entry.get("outputs", []), list, f"{where}.outputs")
            )
        )
        models[name] = ModelResult(
            status, None if detail is None else expect(detail, str, f"{where}.detail"), outputs
        )
    return Verification(models)


def _output(document: object, where: str) -> OutputError:
    entry = expect(document, dict, where)
    scale = _number(member(entry, "scale", where), f"{where}.scale")
    error = member(entry, "worst_error", where)
    worst = math.inf if error is None else _number(error, f"{where}.worst_error")
    return OutputError(scale, worst)


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
        raise ValueError(f"{where}: expected a number of at least 0, got {value!r}")
    return float(value)
