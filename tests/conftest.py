"""Shared fixtures: the repository root and its example models."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

# Tests interrupt builds with Ctrl-C as a terminal would. A test run started in the
# background (as CI may start it) inherits Ctrl-C ignored and passes that on to every build
# it starts, which would then ignore the test's Ctrl-C (Note [Interrupted commands] in
# tasks/engine/actions.py): give the children the terminal's default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_MODELS = REPO / "examples" / "models"


@pytest.fixture
def repo() -> Path:
    return REPO


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist's `--dist loadgroup` (CI's command, .ci/run), the tests that share a
    module-scoped fixture (a build in a temporary folder, a virtualenv) run in one worker,
    which makes the fixture once; every other test goes to whichever worker is free.
    Builds shared across modules live in the repository's build/ behind a file lock
    (tests/workspace.py build_in_repository), so a second worker finds them built."""
    for item in items:
        definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        if any(defs and defs[-1].scope == "module" for defs in definitions.values()):
            module = getattr(item, "module", None)
            item.add_marker(pytest.mark.xdist_group(getattr(module, "__name__", "module")))


def example_pte(name: str) -> Path:
    return EXAMPLE_MODELS / name / f"{name}.pte"
