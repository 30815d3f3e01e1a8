"""The verify stage's tests run models on the kernel tests' include-all runner."""

from tests.kernels.conftest import all_runner

__all__ = ["all_runner"]
