"""verify.json's codec: each model's outcome, as the summary line reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.verification import ModelResult, OutputError, Verification


def test_round_trip_in_the_verify_stages_form(tmp_path: Path) -> None:
    verification = Verification(
        {
            "mlp": ModelResult("ok"),
            "add_mul": ModelResult("failed", "output 0 differs at [1, 2]"),
            "plain": ModelResult("unverified", "no reference outputs"),
        }
    )
    # The bytes the verify stage writes: sorted keys, two-space indent, no detail when ok.
    assert (
        verification.to_json()
        == json.dumps(
            {
                "models": {
                    "add_mul": {"detail": "output 0 differs at [1, 2]", "status": "failed"},
                    "mlp": {"status": "ok"},
                    "plain": {"detail": "no reference outputs", "status": "unverified"},
                }
            },
            indent=2,
            sort_keys=True,
        )
        + "\n"
    )
    path = tmp_path / "verify.json"
    path.write_text(verification.to_json())
    again = Verification.read(path)
    assert again == verification
    assert not again.passed
    assert again.phrase() == "1/3 models verified"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{}", "top level: no 'models'"),
        ('{"models": {"m": {}}}', "models.'m': no 'status'"),
        ('{"models": {"m": {"status": "fine"}}}', "models.'m'.status: 'fine' is not one of"),
        ('{"models": {"m": {"status": "failed", "detail": 3}}}', "models.'m'.detail: expected"),
        ('{"models": {"m": {"status": "ok", "outputs": {}}}}', "models.'m'.outputs: expected"),
        (
            '{"models": {"m": {"status": "ok", "outputs": [{"scale": 1}]}}}',
            "models.'m'.outputs[0]: no 'worst_error'",
        ),
        (
            '{"models": {"m": {"status": "ok", "outputs": [{"scale": -1, "worst_error": 0}]}}}',
            "models.'m'.outputs[0].scale: expected a number of at least 0, got -1",
        ),
    ],
)
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "verify.json"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        Verification.read(path)
    assert str(caught.value).startswith(f"{path}: not a verification file: {problem}")


def test_worst_errors_and_degenerate_references() -> None:
    """Issue 22, item 4: each compared output's scale and worst error are kept; the summary
    gives the worst relative to scale among verified models, and names the degenerate."""
    verification = Verification(
        {
            "mlp": ModelResult("ok", None, (OutputError(2.0, 4e-7), OutputError(0.5, 1e-7))),
            "head": ModelResult(
                "degenerate reference",
                "output 0 has no nonzero finite value: a runner writing zeros matches it",
                (OutputError(0.0, 3e-6),),
            ),
            "nan": ModelResult(
                "failed", "output0.npy: 1 of 2 values differ", (OutputError(1.0, float("inf")),)
            ),
        }
    )
    document = json.loads(verification.to_json())
    assert document["models"]["mlp"]["outputs"] == [
        {"scale": 2.0, "worst_error": 4e-7},
        {"scale": 0.5, "worst_error": 1e-7},
    ]
    assert document["models"]["nan"]["outputs"] == [{"scale": 1.0, "worst_error": None}]
    assert Verification.from_json(verification.to_json(), "verify.json") == verification
    assert not verification.passed
    assert verification.phrase() == (
        "1/3 models verified (worst error 2e-07 of scale), 1 degenerate reference (head)"
    )
    exact = Verification({"a": ModelResult("ok", None, (OutputError(3.0, 0.0),))})
    assert exact.phrase() == "1/1 models verified (exact)"
    only_degenerate = Verification(
        {"a": verification.models["head"], "b": verification.models["head"]}
    )
    assert only_degenerate.passed
    assert only_degenerate.phrase() == "0/2 models verified, 2 degenerate references (a, b)"
