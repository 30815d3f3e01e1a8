"""The conformance programs run on the kernel tests' include-all runners (one build): the
portable one, the one listing the optimized library first, and ExecuTorch's runtime with the
portable kernels."""

from tests.kernels.conftest import all_runner, executorch_runner, optimized_runner

__all__ = ["all_runner", "executorch_runner", "optimized_runner"]
