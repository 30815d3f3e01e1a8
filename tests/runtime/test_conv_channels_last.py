"""Channels-last convolutions (Note [Channels-last GEMM],
kernels/optimized/conv_channels_last.h) on programs ExecuTorch's exporter wrote from nets
moved to torch.channels_last (tests/runtime/programs/export_conv_nhwc.py): each layer's
shape (1x1 at stride 1 and 2 over pixels no multiple of a tile, 3x3 at stride 1 and 2, a
7x7 stem over 3 channels, a grouped one, with and without bias, batch norm folded, relu,
relu6, hardtanh), its input channels last or NCHW (the stem), against PyTorch eager, the
same bytes on one thread and on three."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.kernels.conftest import optimized_runner, threaded_runner
from tests.runtime.test_fusion import prepared_bytes, run

__all__ = ["optimized_runner", "threaded_runner"]

# The nine convolutions' weights (16x3x7x7, 24x16x3x3, 40x24, 48x40x3x3, 64x12x3x3, 72x64,
# 36x72x2x2, 20x36, 8x40x3x3 floats): each packed at load for the channels-last GEMM into at
# least its own bytes. Portable's reference loops, which channels-last layers ran before,
# prepare nothing.
WEIGHT_BYTES = 4 * (2352 + 3456 + 960 + 17280 + 6912 + 4608 + 10368 + 720 + 2880)


@pytest.mark.parametrize("name", ["conv_nhwc", "conv_nhwc_stem"])
def test_channels_last_convolutions_match_eager_on_any_thread_count(
    name: str, optimized_runner: Path, threaded_runner: Path, tmp_path: Path
) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "three").mkdir()
    _, outs = run(optimized_runner, name, tmp_path / "one")
    _, threaded = run(threaded_runner, name, tmp_path / "three")
    assert prepared_bytes(tmp_path / "one") >= WEIGHT_BYTES
    assert prepared_bytes(tmp_path / "three") == prepared_bytes(tmp_path / "one")
    arrays = np.load(Path(__file__).resolve().parent / "programs" / f"{name}.npz")
    for index, (out, other) in enumerate(zip(outs, threaded, strict=True)):
        assert out.tobytes() == other.tobytes()
        np.testing.assert_allclose(out, arrays[f"out{index}"], rtol=1e-4, atol=1e-4)
