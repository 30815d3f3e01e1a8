"""The conformance programs run on the kernel tests' include-all runner (one build)."""

from tests.kernels.conftest import all_runner

__all__ = ["all_runner"]
