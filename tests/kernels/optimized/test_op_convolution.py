"""optimized::convolution_out against portable's, on every path of the kernel: depthwise
(direct and padded), 1x1 as one GEMM, stride-1 layers read tap by tap (tiles ending mid-row,
row blocks, padding wider than the input, a weight packed at load), implicit GEMM for
strided ones, grouped, 1-d, channels-last input or out as one indirect GEMM, and what it
leaves to portable's loops (a channels-last depthwise layer, other layouts, transposed)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from selective_build.codegen.pte.writer import IntList, Tensor
from selective_build.codegen.scalar_type import ScalarType
from tests.kernels.harness import In, Out, assert_fails
from tests.kernels.optimized.conftest import Both, Runners

EVERY_LEVEL = True  # conftest.py: at each instruction set level this machine runs

OP = "aten::convolution.out"


def _out_size(size: int, k: int, stride: int, pad: int, dil: int) -> int:
    return (size + 2 * pad - dil * (k - 1) - 1) // stride + 1


def _conv_args(
    x_shape: tuple[int, ...],
    w_shape: tuple[int, ...],
    *,
    bias: bool = True,
    stride: tuple[int, ...] = (1, 1),
    padding: tuple[int, ...] = (0, 0),
    dilation: tuple[int, ...] = (1, 1),
    groups: int = 1,
    x_order: tuple[int, ...] | None = None,
    out_order: tuple[int, ...] | None = None,
    scale: float = 1.0,
    seed: int = 0,
    constant_weight: bool = False,
) -> list[object]:
    rng = np.random.default_rng(seed)
    x = (rng.uniform(-1, 1, x_shape) * scale).astype(np.float32)
    w = rng.uniform(-1, 1, w_shape).astype(np.float32)
    b = rng.uniform(-1, 1, w_shape[0]).astype(np.float32) if bias else None
    spatial = tuple(
        _out_size(x_shape[2 + d], w_shape[2 + d], stride[d], padding[d], dilation[d])
        for d in range(len(x_shape) - 2)
    )
    out_shape = (x_shape[0], w_shape[0], *spatial)
    # A constant weight is packed once at load (Note [Prepared GEMM operand]).
    weight = Tensor(ScalarType.Float, w.shape, constant=w.tobytes()) if constant_weight else In(w)
    args = [In(x, x_order), weight, In(b) if b is not None else None, IntList(stride)]
    args += [IntList(padding), IntList(dilation), False, IntList((0,) * len(stride)), groups]
    args += [Out(np.float32, out_shape, out_order)]
    return args


def _conv(
    both: Both, x_shape: tuple[int, ...], w_shape: tuple[int, ...], **options: Any
) -> np.ndarray:
    (out,) = both.compare(OP, _conv_args(x_shape, w_shape, **options))
    return out


def test_one_by_one_is_one_gemm(both: Both) -> None:
    _conv(both, (2, 5, 9, 11), (7, 5, 1, 1))
    # More pixels than one GEMM tile (512), and no bias.
    _conv(both, (1, 3, 25, 27), (4, 3, 1, 1), bias=False)


def test_im2col_tiles_end_mid_row(both: Both) -> None:
    # Strides past the kernel's reach build im2col columns (Note [Implicit GEMM]): a 1x1
    # stride-2 downsample, K = 600: tiles of 128 columns over 15 x 17 pixels, the last one
    # partial; a 2x2 kernel at stride 3 with padding; a stride longer across than down.
    _conv(both, (1, 600, 30, 34), (9, 600, 1, 1), stride=(2, 2))
    _conv(both, (2, 3, 13, 10), (5, 3, 2, 2), stride=(3, 3), padding=(1, 1), seed=1)
    _conv(both, (1, 4, 9, 11), (3, 4, 3, 1), stride=(2, 2), padding=(1, 0), seed=2)


def test_implicit_gemm_piece_ends_in_the_left_padding(both: Both) -> None:
    # A 2x2 kernel at stride 3 (im2col), K = 300 * 4: tiles of 64 columns over 21-wide
    # rows, so a tile ends one column into a row, inside the column the kernel's first taps
    # see as padding (Note [Implicit GEMM]: the piece stops at the tile's end).
    _conv(both, (1, 300, 62, 62), (4, 300, 2, 2), stride=(3, 3), padding=(1, 1))


def test_taps_deep_and_wide(both: Both) -> None:
    # A 7x7 kernel with padding 3 around a 9x9 plane, K = 70 * 49: fourteen depth blocks
    # summed into each tile of the grid (Note [Packed GEMM], Note [Tap GEMM]).
    _conv(both, (1, 70, 9, 9), (4, 70, 7, 7), padding=(3, 3))


def test_taps_over_the_padded_grid(both: Both) -> None:
    # Stride 1 reads the padded input tap by tap (Note [Tap GEMM]): a dilated height, a 1-d
    # layer, padding wider than the input, no padding, 1x1 with padding, and 33-wide rows
    # (K = 80 * 25) whose grid columns end mid-row in the last panel.
    _conv(both, (2, 3, 11, 13), (4, 3, 3, 3), padding=(2, 1), dilation=(2, 1))
    _conv(both, (1, 4, 40), (6, 4, 11), padding=(5,), seed=1)
    _conv(both, (1, 2, 2, 3), (3, 2, 5, 3), padding=(2, 1), seed=2)
    _conv(both, (1, 80, 4, 33), (3, 80, 5, 5), padding=(2, 2), seed=3)
    _conv(both, (1, 5, 6, 7), (4, 5, 3, 2), seed=4)
    _conv(both, (2, 3, 4, 5), (6, 3, 1, 1), padding=(1, 2), seed=5)


@pytest.mark.parametrize("constant_weight", [False, True])
def test_one_by_one_over_few_pixels_has_the_pixels_as_rows(
    both: Both, constant_weight: bool
) -> None:
    # Note [Pixels as rows]: a 7x7 map into 64 channels, one pixel (a squeeze-and-excitation
    # block's 1x1) into 40 (a narrow last column panel), 100 frames of a 1-d net into 128
    # (two images, two groups), a 14x14 map into 96 without a bias; the weight packed at
    # load as b, or per call from the weight read transposed.
    options: dict[str, Any] = {"constant_weight": constant_weight}
    _conv(both, (1, 24, 7, 7), (64, 24, 1, 1), **options)
    _conv(both, (1, 300, 1, 1), (40, 300, 1, 1), seed=1, **options)
    one_d = {"stride": (1,), "padding": (0,), "dilation": (1,), "groups": 2}
    _conv(both, (2, 10, 100), (128, 5, 1), seed=2, **one_d, **options)
    _conv(both, (1, 16, 14, 14), (96, 16, 1, 1), bias=False, seed=3, **options)


@pytest.mark.parametrize("constant_weight", [False, True])
def test_taps_over_few_pixels_have_the_pixels_as_rows(both: Both, constant_weight: bool) -> None:
    # Note [Pixels as rows] for layers that read their taps: a 1-d net's 100 frames (kernel
    # 11, "same" padding), its stride-2 stem over two images (phases), a 7x7 map into 128
    # channels (panels spanning output rows), two groups, a dilated 9x9 one without a bias,
    # padding past the kernel's reach (windows of zero rows and columns), a stride of 3
    # across.
    options: dict[str, Any] = {"constant_weight": constant_weight}
    one_d: dict[str, Any] = {"dilation": (1,), **options}
    _conv(both, (1, 16, 100), (64, 16, 11), stride=(1,), padding=(5,), **one_d)
    _conv(both, (2, 8, 201), (64, 8, 11), stride=(2,), padding=(5,), seed=1, **one_d)
    _conv(both, (1, 32, 7, 7), (128, 32, 3, 3), padding=(1, 1), seed=2, **options)
    _conv(both, (2, 16, 7, 7), (128, 8, 3, 3), padding=(1, 1), groups=2, seed=3, **options)
    _conv(both, (1, 8, 9, 9), (96, 8, 3, 3), padding=(2, 2), dilation=(2, 2), bias=False, **options)
    _conv(both, (1, 8, 3, 4), (96, 8, 3, 3), padding=(3, 3), seed=4, **options)
    _conv(both, (1, 8, 7, 20), (96, 8, 3, 3), stride=(1, 3), padding=(1, 1), seed=5, **options)


@pytest.mark.parametrize("constant_weight", [False, True])
def test_taps_split_into_row_blocks(both: Both, constant_weight: bool) -> None:
    # Few column tiles: a 7x7 plane (2 panels of its 9-wide grid) and a 14x14 one, 70 output
    # channels (5 AVX-512 row panels, 12 AVX2 ones) cut into blocks of row panels, each
    # with its own slice of the packed weight and the bias (Note [Convolution work items]);
    # a constant weight is packed at load, any other per work item.
    options: dict[str, Any] = {"padding": (1, 1), "constant_weight": constant_weight}
    _conv(both, (1, 40, 7, 7), (70, 40, 3, 3), **options)
    _conv(both, (2, 6, 14, 14), (70, 6, 3, 3), seed=1, **options)
    _conv(both, (1, 8, 9, 9), (20, 2, 3, 3), groups=4, seed=2, **options)


def test_strided_taps_read_phases(both: Both) -> None:
    # A stride within the kernel's reach reads taps from the input's stride phases (Note [Tap
    # GEMM]): stride 2 down and across, 3 across, dilation making a tap skip a phase.
    _conv(both, (1, 4, 11, 9), (6, 4, 3, 2), stride=(2, 3), padding=(2, 1), dilation=(2, 3))
    # Patches (stride = kernel, a ViT's embedding): every tap its own phase, at offset 0.
    _conv(both, (2, 3, 12, 16), (8, 3, 4, 4), stride=(4, 4), seed=1)
    _conv(both, (1, 5, 7, 10), (4, 5, 2, 3), stride=(2, 3), padding=(1, 1), seed=2)
    # Padding larger than the input: whole rows and columns of every patch are zeros.
    _conv(both, (1, 2, 3, 2), (3, 2, 5, 5), padding=(2, 2))
    _conv(both, (1, 3, 7, 7), (8, 3, 7, 7), stride=(2, 2), padding=(3, 3))


@pytest.mark.parametrize("width", [16, 17, 18, 19, 41])
def test_stride_two_phase_rows(both: Both, width: int) -> None:
    # Stride-2 phase rows (Note [Tap GEMM]) long enough for the vector gather (8..24 per
    # phase row), its masked or scalar tail, and the left padding and right edge around it:
    # a ResNet stem (7x7, pad 3) and a MobileNetV2 stem (3x3, pad 1), three input channels;
    # stride 2 across only.
    _conv(both, (1, 3, 9, width), (4, 3, 7, 7), stride=(2, 2), padding=(3, 3))
    _conv(both, (2, 3, 5, width), (5, 3, 3, 3), stride=(2, 2), padding=(1, 1), seed=1)
    _conv(both, (1, 2, 4, width), (3, 2, 3, 3), stride=(1, 2), padding=(0, 0), seed=2)


def test_grouped_is_one_gemm_per_group(both: Both) -> None:
    _conv(both, (2, 6, 8, 9), (9, 2, 3, 3), padding=(1, 1), groups=3)
    _conv(both, (1, 8, 5, 5), (4, 4, 1, 1), groups=2)


@pytest.mark.parametrize("multiplier", [1, 2])
@pytest.mark.parametrize(
    ("stride", "padding", "dilation"), [(1, 1, 1), (2, 1, 1), (1, 2, 2), (3, 0, 1)]
)
def test_depthwise(both: Both, multiplier: int, stride: int, padding: int, dilation: int) -> None:
    _conv(
        both,
        (2, 5, 13, 19),
        (5 * multiplier, 1, 3, 3),
        stride=(stride, stride),
        padding=(padding, padding),
        dilation=(dilation, dilation),
        groups=5,
    )


# Note [Direct depthwise]: outputs 16 columns (an AVX-512 vector; two of AVX2's) by 4 rows at a
# time. Widths: a plane narrower than a vector (7), one vector and a partial one (14, 23),
# rows with interior chunks between two border ones (40, 71, 100); heights: fewer rows than a
# block (2, 3: the padded path's), a last block overlapping the one before (7, 9), whole
# blocks (8).
DIRECT_PLANES = [(2, 5), (3, 40), (7, 7), (9, 14), (8, 23), (7, 71), (5, 100)]


@pytest.mark.parametrize("k", [3, 5])
@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("padding", [0, 1, 2])
def test_direct_depthwise(both: Both, k: int, stride: int, padding: int) -> None:
    for seed, (height, width) in enumerate(DIRECT_PLANES):
        if height + 2 * padding < k or width + 2 * padding < k:
            continue
        _conv(
            both,
            (2, 3, height, width),
            (3, 1, k, k),
            stride=(stride, stride),
            padding=(padding, padding),
            groups=3,
            bias=seed % 2 == 0,
            seed=seed,
        )


def test_direct_depthwise_channel_multiplier_and_padding_past_the_kernel(both: Both) -> None:
    # Two outputs per input plane; padding wider than the kernel's reach: whole rows and
    # columns of outputs see only zeros and the bias.
    _conv(both, (1, 2, 9, 37), (4, 1, 3, 3), padding=(1, 1), groups=2)
    _conv(both, (1, 2, 6, 20), (2, 1, 3, 3), padding=(4, 5), groups=2, seed=1)
    _conv(both, (1, 2, 6, 20), (2, 1, 5, 5), stride=(2, 2), padding=(6, 3), groups=2, seed=2)


def test_depthwise_kernel_wider_than_input(both: Both) -> None:
    _conv(both, (1, 3, 2, 3), (3, 1, 5, 5), padding=(2, 2), groups=3)
    # 3 wide but no column sees all three taps: only border columns.
    _conv(both, (1, 3, 4, 2), (3, 1, 3, 3), padding=(1, 1), groups=3)


def test_depthwise_padded_phases(both: Both) -> None:
    # Narrow planes: one run over the padded plane, rows copied out (Note [Padded depthwise]).
    _conv(both, (2, 3, 8, 9), (3, 1, 3, 3), padding=(0, 1), groups=3)
    _conv(both, (1, 3, 9, 7), (6, 1, 3, 3), padding=(2, 2), dilation=(2, 2), groups=3)
    # Strided: odd sizes and odd padding put the even input columns in either phase.
    _conv(both, (1, 4, 12, 14), (4, 1, 3, 3), stride=(2, 2), padding=(1, 1), groups=4)
    _conv(both, (1, 4, 13, 13), (4, 1, 3, 3), stride=(2, 2), padding=(1, 1), groups=4)
    _conv(both, (1, 4, 13, 21), (4, 1, 3, 3), stride=(2, 2), padding=(2, 3), groups=4)
    _conv(both, (1, 2, 11, 10), (2, 1, 3, 3), stride=(2, 1), padding=(1, 1), groups=2)
    _conv(both, (1, 2, 15, 12), (2, 1, 3, 3), stride=(3, 3), padding=(0, 0), groups=2)
    # Two rows: no output row has all three kernel rows inside the input.
    _conv(both, (1, 3, 2, 6), (3, 1, 3, 3), padding=(1, 1), groups=3)
    # Wide rows (32 outputs or more): a run per output row, at stride 1, 2 and 3, and
    # with padding wider than the kernel's reach (columns and rows no tap reads).
    _conv(both, (1, 3, 5, 40), (3, 1, 3, 3), padding=(1, 1), groups=3)
    _conv(both, (2, 4, 7, 71), (4, 1, 3, 3), stride=(2, 2), padding=(1, 1), groups=4, seed=1)
    _conv(both, (1, 2, 7, 100), (4, 1, 3, 3), stride=(3, 3), padding=(1, 1), groups=2, seed=2)
    _conv(both, (1, 2, 4, 36), (2, 1, 3, 3), padding=(3, 4), groups=2, seed=3)


def test_depthwise_three_wide_kernels_of_other_heights(both: Both) -> None:
    _conv(both, (1, 4, 9, 10), (4, 1, 5, 3), padding=(2, 1), groups=4)
    _conv(both, (2, 4, 9, 10), (8, 1, 1, 3), stride=(1, 2), padding=(0, 1), groups=4)


def test_conv1d(both: Both) -> None:
    _conv(both, (2, 4, 17), (6, 2, 3), stride=(2,), padding=(1,), dilation=(2,), groups=2)
    _conv(both, (1, 3, 10), (3, 1, 3), padding=(1,), groups=3)


LAST = (0, 2, 3, 1)


@pytest.mark.parametrize("constant_weight", [False, True])
def test_channels_last_is_one_indirect_gemm(both: Both, constant_weight: bool) -> None:
    # Note [Channels-last GEMM]: input and out channels last, or either alone (an NCHW input
    # transposed into scratch, an NCHW out from the product); a stem's few channels (Note
    # [Row taps]), 1x1 at stride 1 and 2, groups, a panel of 16 columns, a batch.
    options: dict[str, Any] = {"constant_weight": constant_weight}
    _conv(both, (1, 3, 6, 5), (4, 3, 3, 3), padding=(1, 1), x_order=LAST, **options)
    _conv(both, (1, 3, 6, 5), (4, 3, 3, 3), out_order=LAST, **options)
    _conv(both, (2, 3, 19, 17), (16, 3, 7, 7), stride=(2, 2), padding=(3, 3), **options)
    both_last = {"x_order": LAST, "out_order": LAST, **options}
    _conv(both, (1, 24, 15, 15), (48, 24, 1, 1), **both_last)
    _conv(both, (1, 24, 15, 15), (40, 24, 1, 1), stride=(2, 2), bias=False, **both_last)
    _conv(both, (2, 16, 9, 11), (32, 8, 3, 3), padding=(1, 1), groups=2, **both_last)
    _conv(both, (1, 12, 10, 10), (20, 12, 3, 3), stride=(2, 2), padding=(1, 1), **both_last)


def test_layouts_left_to_portable_loops(both: Both) -> None:
    # A channels-last depthwise layer, and pixels neither dense nor channels last.
    _conv(both, (1, 4, 6, 5), (4, 1, 3, 3), padding=(1, 1), groups=4, x_order=LAST)
    _conv(both, (1, 3, 6, 5), (4, 3, 3, 3), x_order=(0, 1, 3, 2))


def test_transposed(both: Both) -> None:
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (2, 4, 3, 4)).astype(np.float32)
    w = rng.uniform(-1, 1, (4, 3, 3, 2)).astype(np.float32)
    b = rng.uniform(-1, 1, 6).astype(np.float32)
    args = [In(x), In(w), In(b), IntList((2, 3)), IntList((1, 0)), IntList((1, 2)), True]
    args += [IntList((1, 2)), 2, Out(np.float32, (2, 6, 6, 14))]
    both.compare(OP, args)


def test_large_values_and_empty_batch(both: Both) -> None:
    _conv(both, (1, 3, 6, 6), (4, 3, 3, 3), scale=1e18)
    out = _conv(both, (0, 3, 6, 6), (4, 3, 3, 3))
    assert out.shape == (0, 4, 4, 4)


def test_nan_stays_in_its_windows(both: Both) -> None:
    x = np.zeros((1, 2, 4, 4), np.float32)
    x[0, 1, 0, 0] = np.nan
    w = np.ones((3, 2, 2, 2), np.float32)
    args = [In(x), In(w), None, IntList((1, 1)), IntList((0, 0)), IntList((1, 1)), False]
    args += [IntList((0, 0)), 1, Out(np.float32, (1, 3, 3, 3))]
    (out,) = both.compare(OP, args)
    assert np.isnan(out[0, :, 0, 0]).all() and not np.isnan(out[0, :, 1:, :]).any()


def test_bad_calls_fail_in_one_line(both: Both) -> None:
    x = np.zeros((1, 4, 5, 5), np.float32)
    w = np.zeros((6, 3, 3, 3), np.float32)
    args = [In(x), In(w), None, IntList((1, 1)), IntList((0, 0)), IntList((1, 1)), False]
    args += [IntList((0, 0)), 2, Out(np.float32, (1, 6, 3, 3))]
    assert_fails(both.optimized, OP, args, "groups must divide the channels")
    args = [In(x), In(w.astype(np.float64)), None, IntList((1, 1)), IntList((0, 0))]
    args += [IntList((1, 1)), False, IntList((0, 0)), 1, Out(np.float32, (1, 6, 3, 3))]
    assert_fails(both.optimized, OP, args, "must have one dtype")


# Each path's work split over three threads gives the bits of one (Note [Threads]): narrow and
# wide depthwise, taps of a strided stem, the 1x1 GEMM tiles over a batch, groups, im2col.
THREADED = [
    ((2, 6, 14, 14), (6, 1, 3, 3), {"padding": (1, 1), "groups": 6}),
    ((1, 4, 6, 70), (8, 1, 3, 3), {"stride": (2, 2), "padding": (1, 1), "groups": 4}),
    ((2, 3, 20, 37), (8, 3, 7, 7), {"stride": (2, 2), "padding": (3, 3)}),
    ((3, 8, 9, 70), (16, 8, 1, 1), {}),
    ((2, 6, 8, 9), (9, 2, 3, 3), {"padding": (1, 1), "groups": 3}),
    ((1, 6, 13, 45), (6, 1, 5, 5), {"stride": (2, 2), "padding": (2, 2), "groups": 6}),
    ((2, 5, 7, 40), (5, 1, 3, 3), {"padding": (1, 1), "groups": 5}),
    # Stride-1 taps: many column tiles (a 40 x 40 plane), and few split by row blocks.
    ((1, 8, 40, 40), (16, 8, 3, 3), {"padding": (1, 1)}),
    ((1, 16, 7, 7), (60, 16, 3, 3), {"padding": (1, 1), "constant_weight": True}),
    ((1, 300, 30, 34), (16, 300, 1, 1), {"stride": (2, 2)}),
    # Channels last (Note [Channels-last GEMM]): pixel tiles and column panels as items.
    ((2, 16, 20, 23), (48, 16, 3, 3), {"padding": (1, 1), "x_order": LAST, "out_order": LAST}),
    ((1, 3, 30, 31), (16, 3, 7, 7), {"stride": (2, 2), "padding": (3, 3), "out_order": LAST}),
]


@pytest.mark.parametrize(("x_shape", "w_shape", "options"), THREADED)
def test_threads_give_the_same_bits(
    runners: Runners,
    x_shape: tuple[int, ...],
    w_shape: tuple[int, ...],
    options: dict[str, Any],
) -> None:
    terms = int(np.prod(w_shape[1:])) + 1  # the products and the bias of each output
    runners.close(OP, _conv_args(x_shape, w_shape, **options), terms)
