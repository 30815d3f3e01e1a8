"""The conformance programs run on the kernel tests' include-all runners (one build): the
portable one and the one listing the optimized library first."""

from tests.kernels.conftest import all_runner, optimized_runner

__all__ = ["all_runner", "optimized_runner"]
