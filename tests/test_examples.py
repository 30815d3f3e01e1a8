"""Every exported example model is either built by the default manifest or listed, with the
error it gives today, in examples/pending.toml (which is a manifest of its own)."""

from __future__ import annotations

from pathlib import Path

from codegen.manifest import load_manifest
from tests.workspace import REPO

EXAMPLE_MODELS = REPO / "examples" / "models"
# Examples that no target builds on purpose: a delegated program our runner has no backend
# for (tests/runtime/test_delegate.py covers it).
NOT_BUILT = {"xnnpack"}


def _programs(models: dict[str, Path]) -> set[str]:
    return {path.parent.name for path in models.values()}


def test_every_example_is_built_or_pending() -> None:
    default = load_manifest(REPO / "selective.toml")
    pending = load_manifest(REPO / "examples" / "pending.toml")
    # Only the models under examples/models/: the custom-operator example keeps its program
    # beside its kernel library in examples/custom_ops/.
    built = {
        default.models[name].path.parent.name
        for target in default.targets.values()
        for name in target.models
        if default.models[name].path.parent.parent == EXAMPLE_MODELS
    }
    waiting = _programs({name: model.path for name, model in pending.models.items()})
    folders = {path.name for path in EXAMPLE_MODELS.iterdir() if path.is_dir()}
    assert built.isdisjoint(waiting), built & waiting
    assert folders == built | waiting | NOT_BUILT


def test_pending_models_have_their_references_and_a_stated_error() -> None:
    text = (REPO / "examples" / "pending.toml").read_text()
    pending = load_manifest(REPO / "examples" / "pending.toml")
    assert pending.models
    for name, model in pending.models.items():
        assert model.path.is_file() and model.inputs and model.outputs, name
        assert all(path.is_file() for path in (*model.inputs, *model.outputs)), name
        # The comment above each table says what fails today.
        comment = text.split(f"[models.{name}]")[0].rsplit("\n\n", 1)[-1]
        assert "# Today: " in comment, name
