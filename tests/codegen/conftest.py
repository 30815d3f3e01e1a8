"""The two readers of kernel calls: the C one (`codegen.pte.native`) and its numpy fallback
(`codegen.pte.batch`). Tests that take `kernel_call_reader` run once with each."""

from __future__ import annotations

import pytest

from selective_build.codegen.pte import native


@pytest.fixture(params=["native", "numpy"])
def kernel_call_reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "numpy":
        monkeypatch.setattr(native, "MODULE", None)
    else:
        assert native.MODULE is not None, "the C reader was not built"
    return str(request.param)
