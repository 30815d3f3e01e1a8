"""The backends a target links, and the build-time refusal of one its runtime lacks."""

from __future__ import annotations

import pytest

from selective_build.codegen.backends import target_backends
from selective_build.codegen.errors import InputError

XNNPACK = "XnnpackBackend"


def test_backends_are_the_models_delegates_and_the_targets_list() -> None:
    delegates = {"a": (XNNPACK,), "b": (), "c": (XNNPACK,)}
    provided = frozenset({XNNPACK, "QnnBackend"})
    assert target_backends("t", delegates, ("QnnBackend",), provided) == ("QnnBackend", XNNPACK)
    assert target_backends("t", {"b": ()}, (), None) == ()


def test_our_runtime_refuses_a_delegated_program_with_the_hint() -> None:
    with pytest.raises(InputError) as error:
        target_backends("small", {"b": (), "a": (XNNPACK,)}, (), None)
    assert str(error.value) == (
        "target small: model a delegates to backend XnnpackBackend, which our runtime cannot "
        'run: build it on ExecuTorch\'s runtime (runtime = "executorch" in the target)'
    )


def test_a_backend_the_install_lacks_names_model_and_backend() -> None:
    with pytest.raises(InputError) as error:
        target_backends("t", {"m": ("VulkanBackend",)}, (), frozenset({XNNPACK}))
    assert str(error.value) == (
        "target t: model m needs backend VulkanBackend, which the target's ExecuTorch "
        "install does not provide (it links: XnnpackBackend)"
    )


def test_a_listed_backend_is_checked_too() -> None:
    with pytest.raises(InputError, match=r"targets\.t\.backends needs backend CoreMLBackend"):
        target_backends("t", {}, ("CoreMLBackend",), frozenset())
