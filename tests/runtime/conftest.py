"""Runtime feature tests run programs on the kernel tests' include-all runner."""

from tests.kernels.conftest import all_runner, kernel

__all__ = ["all_runner", "kernel"]
