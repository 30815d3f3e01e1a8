"""verify.json's codec: each model's outcome, as the summary line reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.errors import InputError
from codegen.verification import ModelResult, Verification


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
    ],
)
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "verify.json"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        Verification.read(path)
    assert str(caught.value).startswith(f"{path}: not a verification file: {problem}")
