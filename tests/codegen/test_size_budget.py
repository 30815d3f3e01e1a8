"""A target's budgets as the size report holds them."""

from __future__ import annotations

from selective_build.codegen.size.budget import target_budgets


def test_size_budget_is_the_budget_on_file() -> None:
    assert target_budgets(40_960, {"text": 32_768}) == {"text": 32_768, "file": 40_960}
    assert target_budgets(None, {"kernels": 100}) == {"kernels": 100}
    assert target_budgets(None, {}) == {}


def test_size_budget_wins_over_a_file_entry_and_the_input_is_not_changed() -> None:
    # The manifest rejects `file` in size_budgets; were it there, size_budget still rules.
    budgets = {"file": 1}
    assert target_budgets(2, budgets) == {"file": 2}
    assert budgets == {"file": 1}
