"""Every exported example model is built and verified by the default manifest (real models
our runner could not run waited in examples/pending.toml; since the quantized conv net runs,
none does)."""

from __future__ import annotations

from selective_build.codegen.manifest import load_manifest
from tests.workspace import REPO

EXAMPLE_MODELS = REPO / "examples" / "models"
# Examples the default manifest does not build: delegated programs our runtime has no
# backend for (tests/runtime/test_delegate.py). Targets on ExecuTorch's runtime run them
# (examples/executorch_app/selective.toml, the kernel tests' executorch target).
NOT_BUILT = {"xnnpack", "xnn_conv", "xnn_quant_conv", "xnn_dynamic_linear", "xnn_partial"}


def test_every_example_is_built() -> None:
    default = load_manifest(REPO / "selective.toml")
    # Only the models under examples/models/: the custom-operator example keeps its program
    # beside its kernel library in examples/custom_ops/.
    built = {
        default.models[name].path.parent.name
        for target in default.targets.values()
        for name in target.models
        if default.models[name].path.parent.parent == EXAMPLE_MODELS
    }
    folders = {path.name for path in EXAMPLE_MODELS.iterdir() if path.is_dir()}
    assert built.isdisjoint(NOT_BUILT), built & NOT_BUILT
    assert folders == built | NOT_BUILT
