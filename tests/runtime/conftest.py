"""Runtime feature tests run programs on the kernel tests' include-all runners (ours, and
ExecuTorch's runtime with our kernels)."""

from tests.kernels.conftest import all_runner, executorch_runner, kernel

__all__ = ["all_runner", "executorch_runner", "kernel"]
