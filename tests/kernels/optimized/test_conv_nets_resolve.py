"""The example conv nets resolve every operator the optimized library has to it: a declared
dtype list that leaves out one of a call's tensors (max pooling's Long indices) would hand
the call to portable without a word (Note [Dtype fallback chain])."""

from __future__ import annotations

import pytest

from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.resolution import resolve
from selective_build.codegen.selection import read_selection
from tests.workspace import REPO

KERNELS = REPO / "kernels"


@pytest.mark.parametrize("model", ["resnet", "mobilenet_v2"])
def test_every_operator_the_optimized_library_has_resolves_to_it(model: str) -> None:
    libraries = [
        read_kernel_library(name, KERNELS / name / "functions.yaml", KERNELS / name)
        for name in ("optimized", "portable", "prim")
    ]
    optimized = {str(kernel.op) for kernel in libraries[0].kernels}
    wanted = read_selection(REPO / "examples" / "models" / model / "selected_operators.yaml")
    served = {str(k.op): k.library for k in resolve(wanted, libraries, model).kernels}
    assert "aten::convolution.out" in served
    elsewhere = {op: lib for op, lib in served.items() if op in optimized and lib != "optimized"}
    assert not elsewhere, elsewhere
