"""What the conformance programs compute: one `Case` per program, its methods one per dtype.

Read only by `export.py` (it needs torch); the test reads what the export wrote. A case
names the operators its program must call (as `functions.yaml` spells them), the dtype
families it runs at, the example inputs per dtype and, where the operator allows, dynamic
dims. Inputs are small and drawn from a generator seeded by the case name, so a re-export
writes the same data.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F
from functorch.experimental import control_flow
from torch.export import Dim

# Family name -> torch dtype. A family is the method name inside its program.
DTYPES: dict[str, torch.dtype] = {
    "bool": torch.bool,
    "u8": torch.uint8,
    "i8": torch.int8,
    "i16": torch.int16,
    "i32": torch.int32,
    "i64": torch.int64,
    "f16": torch.float16,
    "bf16": torch.bfloat16,
    "f32": torch.float32,
    "f64": torch.float64,
    "c64": torch.complex64,
}
# The ScalarType names functions.yaml's `dtypes:` lists use.
YAML_NAMES = {
    "bool": "Bool",
    "u8": "Byte",
    "i8": "Char",
    "i16": "Short",
    "i32": "Int",
    "i64": "Long",
    "f16": "Half",
    "bf16": "BFloat16",
    "f32": "Float",
    "f64": "Double",
    "c64": "ComplexFloat",
}
FLOAT = ("f32", "f64", "f16", "bf16")
# Three widths stand for the integer family (unsigned 8-bit, signed 32- and 64-bit): the
# kernels instantiate one template per integer dtype, and every width more would add a
# method to most programs and a runner call to the test for little that these miss.
INT = ("u8", "i32", "i64")
SIGNED = ("i32", "i64")
REAL = INT + FLOAT
ALL = ("bool",) + REAL

Inputs = Callable[["Gen", torch.dtype], tuple[torch.Tensor, ...]]


class Gen:
    """Small random tensors from one seeded generator."""

    def __init__(self, seed: int) -> None:
        self.generator = torch.Generator().manual_seed(seed)

    def t(
        self, shape: Sequence[int], dtype: torch.dtype, low: float = -4, high: float = 4
    ) -> torch.Tensor:
        if dtype == torch.bool:
            return torch.randint(0, 2, tuple(shape), generator=self.generator).bool()
        if dtype.is_floating_point:
            values = torch.rand(tuple(shape), generator=self.generator) * (high - low) + low
            return values.to(dtype)
        if dtype == torch.uint8:
            low = max(low, 0)
        return torch.randint(int(low), int(high) + 1, tuple(shape), generator=self.generator).to(
            dtype
        )

    def positive(self, shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
        return self.t(shape, dtype, 1, 4)

    def index(self, shape: Sequence[int], high: int) -> torch.Tensor:
        return torch.randint(0, high, tuple(shape), generator=self.generator)


@dataclass(frozen=True)
class Case:
    """One program: `fn` applied to `inputs(gen, dtype)`, one method per family."""

    name: str
    ops: tuple[str, ...]
    fn: Callable[..., Any]
    inputs: Inputs
    families: tuple[str, ...]
    dynamic: Callable[[int], Any] | None = None  # number of inputs -> dynamic_shapes
    # Operators to_edge keeps as they are (`preserve_ops`), although they are not in the
    # Core ATen opset or would be decomposed: how users keep an op the runtime has a kernel for.
    non_core: tuple[str, ...] = ()
    # Whose outputs the program is held to: "pytorch" (eager) or "executorch" (ExecuTorch
    # 1.5.1's own runtime on the exported program), for operators whose ExecuTorch kernel
    # computes otherwise than PyTorch's reference on purpose (choose_qparams*).
    reference: str = "pytorch"
    # Run ExecuTorch's QuantFusionPass on the edge program (dequantize -> op -> quantize
    # patterns become quantized_decomposed operators such as add), as its own tests do.
    fuse_quantized: bool = False
    # Applied to the EdgeProgramManager before to_executorch (ExecuTorch's own way of
    # rewriting a graph, `edge.transform([pass])`): for an operator torch.export never
    # leaves in a graph but the emitter and runtime take.
    edge_transform: Callable[[Any], Any] | None = None
    # How the test judges the outputs (tests/conformance/properties.py): "values" against
    # PyTorch's, or by a property where PyTorch's values cannot be reproduced (random or
    # uninitialized outputs).
    compare: str = "values"
    # to_edge's `_skip_dim_order`: keep aten ops (clone, _to_copy, empty.out) rather than
    # their dim_order_ops replacements (what a program made for a runtime without dim orders
    # has).
    skip_dim_order: bool = False

    def generator(self, family: str) -> Gen:
        return Gen(zlib.crc32(f"{self.name}/{family}".encode()))


CASES: list[Case] = []


def case(
    name: str,
    ops: str | tuple[str, ...],
    fn: Callable[..., Any],
    inputs: Inputs,
    families: tuple[str, ...],
    **extra: Any,
) -> None:
    CASES.append(Case(name, (ops,) if isinstance(ops, str) else ops, fn, inputs, families, **extra))


def one(shape: Sequence[int] = (3, 4), positive: bool = False) -> Inputs:
    return lambda g, d: (g.positive(shape, d) if positive else g.t(shape, d),)


def two(a: Sequence[int] = (3, 4), b: Sequence[int] = (3, 4), positive_b: bool = False) -> Inputs:
    return lambda g, d: (g.t(a, d), g.positive(b, d) if positive_b else g.t(b, d))


def batch_dim(inputs: int) -> Any:
    """Every input's first dim dynamic (one shared Dim)."""
    batch = Dim("batch", min=2, max=16)
    return tuple({0: batch} for _ in range(inputs))


# --- elementwise unary ---------------------------------------------------------------
for _name, _fn, _positive in [
    ("exp", torch.exp, False),
    ("log", torch.log, True),
    ("sqrt", torch.sqrt, True),
    ("rsqrt", torch.rsqrt, True),
    ("reciprocal", torch.reciprocal, True),
    ("sin", torch.sin, False),
    ("cos", torch.cos, False),
    ("tanh", torch.tanh, False),
    ("sigmoid", torch.sigmoid, False),
    ("erf", torch.erf, False),
]:
    case(_name, f"{_name}.out", _fn, one(positive=_positive), ALL)
case("exp_dynamic", "exp.out", torch.exp, one(), ("f32",), dynamic=batch_dim)
case("abs", "abs.out", torch.abs, one(), REAL)
case("neg", "neg.out", torch.neg, one(), SIGNED + FLOAT)
case("sign", "sign.out", torch.sign, one(), ("bool",) + REAL)
for _name, _fn in [("floor", torch.floor), ("ceil", torch.ceil), ("round", torch.round)]:
    case(_name, f"{_name}.out", _fn, lambda g, d: (g.t((3, 4), d) * 1.5,), REAL)
case(
    "round_decimals",
    "round.decimals_out",
    lambda x: torch.round(x, decimals=1),
    one(),
    FLOAT,
    non_core=("round.decimals",),
)
case("relu", "relu.out", F.relu, one(), REAL)
case("bitwise_not", "bitwise_not.out", torch.bitwise_not, one(), ("bool",) + INT)
case("logical_not", "logical_not.out", torch.logical_not, one(), ALL)
case("gelu", "gelu.out", F.gelu, one(), FLOAT)
case("gelu_tanh", "gelu.out", lambda x: F.gelu(x, approximate="tanh"), one(), FLOAT)
case("leaky_relu", "leaky_relu.out", lambda x: F.leaky_relu(x, 0.1), one(), FLOAT)
case("elu", "elu.out", lambda x: F.elu(x, alpha=0.5), one(), FLOAT)
case("hardtanh", "hardtanh.out", lambda x: F.hardtanh(x, -2.0, 2.0), one(), REAL)
# MobileNetV3's activations: to_edge decomposes them unless told to keep them. 65 values in
# [-4, 4): both saturations, and more than one vector of the optimized kernels with a tail.
for _name, _fn in [("hardswish", F.hardswish), ("hardsigmoid", F.hardsigmoid)]:
    case(_name, f"{_name}.out", _fn, one((5, 13)), FLOAT, non_core=(f"{_name}.default",))

# --- elementwise binary: tensor and scalar overloads -------------------------------
for _name, _fn in [("add", torch.add), ("sub", torch.sub), ("mul", torch.mul)]:
    _families = ALL if _name != "sub" else REAL
    case(_name, f"{_name}.out", _fn, two(), _families)
    case(f"{_name}_broadcast", f"{_name}.out", _fn, two((2, 3, 4), (3, 1)), ("f32", "i32"))
    case(f"{_name}_dynamic", f"{_name}.out", _fn, two(), ("f32",), dynamic=batch_dim)
case("add_alpha", "add.out", lambda x, y: torch.add(x, y, alpha=2), two(), REAL)
case("sub_alpha", "sub.out", lambda x, y: torch.sub(x, y, alpha=2), two(), REAL)
case("add_scalar", "add.Scalar_out", lambda x: torch.ops.aten.add.Scalar(x, 2), one(), REAL)
case("sub_scalar", "sub.Scalar_out", lambda x: torch.ops.aten.sub.Scalar(x, 2), one(), REAL)
case("mul_scalar", "mul.Scalar_out", lambda x: torch.ops.aten.mul.Scalar(x, 3), one(), ALL)
case("div", "div.out", torch.div, two(positive_b=True), REAL)
case(
    "div_trunc",
    "div.out_mode",
    lambda x, y: torch.div(x, y, rounding_mode="trunc"),
    two(positive_b=True),
    REAL,
)
case(
    "div_floor",
    "div.out_mode",
    lambda x, y: torch.div(x, y, rounding_mode="floor"),
    two(positive_b=True),
    REAL,
)
case("div_scalar", "div.Scalar_out", lambda x: torch.ops.aten.div.Scalar(x, 2), one(), REAL)
case(
    "div_scalar_mode",
    "div.Scalar_mode_out",
    lambda x: torch.ops.aten.div.Scalar_mode(x, 3, rounding_mode="floor"),
    one(),
    REAL,
)
case(
    "pow",
    "pow.Tensor_Tensor_out",
    torch.pow,
    lambda g, d: (g.positive((3, 4), d), g.t((3, 4), d, 0, 3)),
    REAL,
)
case("pow_scalar", "pow.Tensor_Scalar_out", lambda x: torch.pow(x, 2), one(), REAL)
case("remainder", "remainder.Tensor_out", torch.remainder, two(positive_b=True), REAL)
case("remainder_scalar", "remainder.Scalar_out", lambda x: torch.remainder(x, 3), one(), REAL)
case("fmod", "fmod.Tensor_out", torch.fmod, two(positive_b=True), REAL)
case("fmod_scalar", "fmod.Scalar_out", lambda x: torch.fmod(x, 3), one(), REAL)
case("maximum", "maximum.out", torch.maximum, two(), ALL)
case("minimum", "minimum.out", torch.minimum, two(), ALL)
case("atan2", "atan2.out", torch.atan2, two(), REAL)
for _name in ["eq", "ne", "lt", "le", "gt", "ge"]:
    case(_name, f"{_name}.Tensor_out", getattr(torch, _name), two((3, 4), (3, 4)), ALL)
    case(
        f"{_name}_scalar",
        f"{_name}.Scalar_out",
        lambda x, _n=_name: getattr(torch, _n)(x, 1),
        one(),
        ALL,
    )
for _name in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
    case(_name, f"{_name}.Tensor_out", getattr(torch, _name), two(), ("bool",) + INT)
    case(
        f"{_name}_scalar",
        f"{_name}.Scalar_out",
        lambda x, _n=_name: getattr(torch.ops.aten, _n).Scalar(x, 3),
        one(),
        INT,
    )
for _name in ["logical_and", "logical_or", "logical_xor"]:
    case(_name, f"{_name}.out", getattr(torch, _name), two(), ALL)
case(
    "clamp",
    "clamp.out",
    lambda x: torch.clamp(x, -1, 2),
    one(),
    REAL,
)
case("clamp_min_only", "clamp.out", lambda x: torch.clamp(x, min=0), one(), REAL)
case("clamp_max_only", "clamp.out", lambda x: torch.clamp(x, max=1), one(), REAL)
case(
    "clamp_tensor",
    "clamp.Tensor_out",
    lambda x, lo, hi: torch.clamp(x, lo, hi),
    lambda g, d: (g.t((3, 4), d), g.t((3, 4), d, -4, 0), g.t((3, 4), d, 0, 4)),
    REAL,
)
case(
    "clamp_tensor_min_only",
    "clamp.Tensor_out",
    lambda x, lo: torch.clamp(x, min=lo),
    two(),
    REAL,
)
case(
    "where",
    "where.self_out",
    torch.where,
    lambda g, d: (g.t((3, 4), torch.bool), g.t((3, 4), d), g.t((3, 4), d)),
    ALL,
)
case(
    "masked_fill",
    "masked_fill.Scalar_out",
    lambda x, m: x.masked_fill(m, 1),
    lambda g, d: (g.t((3, 4), d), g.t((3, 4), torch.bool)),
    ALL,
    non_core=("masked_fill.Scalar",),  # else decomposed into where.self
)

# --- matrix products, convolution, normalization ---------------------------------------
case("mm", "mm.out", torch.mm, two((3, 4), (4, 5)), REAL)
case("bmm", "bmm.out", torch.bmm, two((2, 3, 4), (2, 4, 5)), REAL)
case(
    "addmm",
    "addmm.out",
    lambda b, x, y: torch.addmm(b, x, y),
    lambda g, d: (g.t((5,), d), g.t((3, 4), d), g.t((4, 5), d)),
    REAL,
)
case(
    "addmm_beta_alpha",
    "addmm.out",
    lambda b, x, y: torch.addmm(b, x, y, beta=0.5, alpha=2.0),
    lambda g, d: (g.t((3, 5), d), g.t((3, 4), d), g.t((4, 5), d)),
    FLOAT,
)
case(
    "linear",
    ("addmm.out", "permute_copy.out"),
    F.linear,
    lambda g, d: (g.t((3, 4), d), g.t((5, 4), d), g.t((5,), d)),
    FLOAT,
)
case("conv2d", "convolution.out", F.conv2d, two((1, 2, 5, 5), (3, 2, 3, 3)), REAL)
case(
    "conv2d_bias_stride_padding",
    "convolution.out",
    lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1, dilation=1),
    lambda g, d: (g.t((1, 2, 6, 6), d), g.t((4, 2, 3, 3), d), g.t((4,), d)),
    FLOAT,
)
case(
    "conv2d_groups_dilation",
    "convolution.out",
    lambda x, w: F.conv2d(x, w, groups=2, dilation=2),
    two((1, 4, 7, 7), (4, 2, 2, 2)),
    FLOAT,
)
case("conv1d", "convolution.out", F.conv1d, two((1, 2, 8), (3, 2, 3)), FLOAT)
case(
    "conv_transpose2d",
    "convolution.out",
    lambda x, w: F.conv_transpose2d(x, w, stride=2),
    two((1, 2, 4, 4), (2, 3, 3, 3)),
    FLOAT,
)
case(
    "conv_transpose2d_every_parameter",
    "convolution.out",
    lambda x, w, b: F.conv_transpose2d(
        x, w, b, stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2, dilation=(1, 2)
    ),
    lambda g, d: (g.t((1, 4, 3, 4), d), g.t((4, 3, 3, 2), d), g.t((6,), d)),
    FLOAT,
)
case(
    "conv_transpose1d",
    "convolution.out",
    lambda x, w: F.conv_transpose1d(x, w, stride=2, padding=1, output_padding=1),
    two((1, 2, 5), (2, 3, 3)),
    FLOAT,
)
case(
    "conv2d_channels_last",
    "convolution.out",
    F.conv2d,
    lambda g, d: (
        g.t((1, 3, 5, 5), d).to(memory_format=torch.channels_last),
        g.t((2, 3, 3, 3), d).to(memory_format=torch.channels_last),
    ),
    ("f32",),
)
case(
    "layer_norm",
    "native_layer_norm.out",
    lambda x, w, b: F.layer_norm(x, (4,), w, b),
    lambda g, d: (g.t((2, 3, 4), d), g.t((4,), d), g.t((4,), d)),
    FLOAT,
)
case(
    "layer_norm_no_affine",
    "native_layer_norm.out",
    lambda x: F.layer_norm(x, (3, 4)),
    one((2, 3, 4)),
    FLOAT,
)
case(
    "batch_norm",
    "_native_batch_norm_legit_no_training.out",
    lambda x, m, v, w, b: F.batch_norm(x, m, v, w, b, training=False, eps=1e-3),
    lambda g, d: (
        g.t((2, 3, 4, 4), d),
        g.t((3,), d),
        g.positive((3,), d),
        g.t((3,), d),
        g.t((3,), d),
    ),
    FLOAT,
)
case(
    "batch_norm_no_affine",
    "_native_batch_norm_legit_no_training.out",
    lambda x, m, v: F.batch_norm(x, m, v, training=False),
    lambda g, d: (g.t((2, 3, 4), d), g.t((3,), d), g.positive((3,), d)),
    FLOAT,
)
case("softmax", "_softmax.out", lambda x: torch.softmax(x, -1), one(), FLOAT)
case("softmax_dim0", "_softmax.out", lambda x: torch.softmax(x, 0), one((3, 4, 2)), FLOAT)
case("log_softmax", "_log_softmax.out", lambda x: torch.log_softmax(x, 1), one(), FLOAT)
case(
    "softmax_dynamic",
    "_softmax.out",
    lambda x: torch.softmax(x, -1),
    one(),
    ("f32",),
    dynamic=batch_dim,
)

# --- pooling, resampling, padding ------------------------------------------------------
case(
    "max_pool2d",
    "max_pool2d_with_indices.out",
    lambda x: F.max_pool2d(x, 2),
    one((1, 2, 4, 4)),
    REAL,
)
case(
    "max_pool2d_indices",
    "max_pool2d_with_indices.out",
    lambda x: F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True),
    one((1, 2, 5, 5)),
    FLOAT,
)
case(
    "avg_pool2d",
    "avg_pool2d.out",
    lambda x: F.avg_pool2d(x, 2),
    one((1, 2, 4, 4)),
    ("i64",) + FLOAT,
)
case(
    "avg_pool2d_options",
    "avg_pool2d.out",
    lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    one((1, 2, 5, 5)),
    FLOAT,
)
case(
    "avg_pool2d_divisor",
    "avg_pool2d.out",
    lambda x: F.avg_pool2d(x, 2, divisor_override=3),
    one((1, 2, 4, 4)),
    FLOAT,
)
case(
    "adaptive_avg_pool2d",
    "_adaptive_avg_pool2d.out",
    lambda x: F.adaptive_avg_pool2d(x, (2, 3)),
    one((1, 2, 5, 7)),
    FLOAT,
)
case(
    "upsample_nearest2d",
    "upsample_nearest2d.vec_out",
    lambda x: F.interpolate(x, scale_factor=2, mode="nearest"),
    one((1, 2, 3, 3)),
    ("u8",) + FLOAT,
)
case(
    "upsample_nearest2d_size",
    "upsample_nearest2d.vec_out",
    lambda x: F.interpolate(x, size=(5, 4), mode="nearest"),
    one((1, 2, 3, 3)),
    ("f32",),
)
case(
    "upsample_bilinear2d",
    "upsample_bilinear2d.vec_out",
    lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
    one((1, 2, 3, 3)),
    FLOAT,
)
case(
    "upsample_bilinear2d_align",
    "upsample_bilinear2d.vec_out",
    lambda x: F.interpolate(x, size=(5, 4), mode="bilinear", align_corners=True),
    one((1, 2, 3, 3)),
    FLOAT,
)
case(
    "constant_pad_nd",
    "constant_pad_nd.out",
    lambda x: F.pad(x, (1, 2, 0, 1), value=0.5),
    one(),
    REAL,
)

# --- reductions -----------------------------------------------------------------------
case("sum", "sum.IntList_out", lambda x: x.sum(1), one(), REAL)
case(
    "sum_keepdim_dtype",
    "sum.IntList_out",
    lambda x: x.sum((0, 1), keepdim=True, dtype=torch.float64),
    one((2, 3, 4)),
    REAL,
)
case("sum_all", "sum.IntList_out", lambda x: x.sum(), one(), ("f32", "i32"))
case("mean", "mean.out", lambda x: x.mean(1), one(), FLOAT)
case("mean_keepdim", "mean.out", lambda x: x.mean((0, 2), keepdim=True), one((2, 3, 4)), FLOAT)
case("prod", "prod.out", torch.prod, one((2, 3)), REAL)
case("prod_dim", "prod.int_out", lambda x: torch.prod(x, 1, keepdim=True), one(), REAL)
case("amax", "amax.out", lambda x: torch.amax(x, 1), one(), ALL)
case("amin", "amin.out", lambda x: torch.amin(x, (0, 1), keepdim=True), one((2, 3, 4)), ALL)
case("max_dim", "max.dim_max", lambda x: torch.max(x, 1), one(), REAL)
case("min_dim", "min.dim_min", lambda x: torch.min(x, 0, keepdim=True), one(), REAL)
case("argmax", "argmax.out", lambda x: torch.argmax(x, 1), one(), REAL)
case("argmax_all", "argmax.out", torch.argmax, one(), ("f32",))
case("argmin", "argmin.out", lambda x: torch.argmin(x, 0, keepdim=True), one(), REAL)
case("any_all", "any.all_out", torch.any, one(), ALL)
case("any_dim", "any.out", lambda x: torch.any(x, 1), one(), ALL)
case("any_dims", "any.dims_out", lambda x: torch.any(x, (0, 1)), one((2, 3, 4)), ALL)
# to_edge rewrites all() as not(any(not x)) unless told to keep it.
case("all_all", "all.all_out", torch.all, one(), ALL, non_core=("all.default",))
case(
    "all_dims",
    "all.dims_out",
    lambda x: torch.ops.aten.all.dims(x, [1, 2]),
    one((2, 3, 4)),
    ALL,
    non_core=("all.dims",),
)
case("var", "var.correction_out", lambda x: torch.var(x, 1), one(), FLOAT)
case(
    "var_correction",
    "var.correction_out",
    lambda x: torch.var(x, (0, 1), correction=0, keepdim=True),
    one((2, 3, 4)),
    FLOAT,
)
case(
    "var_unbiased",
    "var.out",
    lambda x: torch.ops.aten.var.dim(x, [1], False, False),
    one(),
    FLOAT,
    non_core=("var.dim",),
)
case("cumsum", "cumsum.out", lambda x: torch.cumsum(x, 1), one(), REAL)
case(
    "cumsum_dtype",
    "cumsum.out",
    lambda x: torch.cumsum(x, 0, dtype=torch.float32),
    one(),
    ("i32", "f64"),
)
case(
    "topk",
    "topk.values",
    lambda x: torch.topk(x, 2),
    lambda g, d: (torch.randperm(12, generator=g.generator).reshape(3, 4).to(d),),
    REAL,
)
case(
    "topk_smallest",
    "topk.values",
    lambda x: torch.topk(x, 2, dim=0, largest=False),
    lambda g, d: (torch.randperm(12, generator=g.generator).reshape(3, 4).to(d),),
    ("f32",),
)
case(
    "sort",
    "sort.values",
    lambda x: torch.sort(x, 1, descending=True),
    lambda g, d: (torch.randperm(12, generator=g.generator).reshape(3, 4).to(d),),
    REAL,
)
case(
    "sort_stable",
    "sort.values_stable",
    lambda x: torch.sort(x, stable=True),
    one(),
    REAL,
    non_core=("sort.stable",),
)

# --- shape and copy operators -----------------------------------------------------------
case("permute", "permute_copy.out", lambda x: x.permute(2, 0, 1), one((2, 3, 4)), ALL)
case("transpose", "permute_copy.out", lambda x: x.transpose(0, 1) + 0, one(), ("f32",))
case(
    "transpose_copy",
    "transpose_copy.int_out",
    lambda x: torch.ops.aten.transpose_copy.int(x, 0, 2),
    one((2, 3, 4)),
    ALL,
    non_core=("transpose_copy.int",),
)
case(
    "t_copy",
    "t_copy.out",
    torch.ops.aten.t_copy.default,
    one(),
    ALL,
    non_core=("t_copy.default",),
)
case(
    "t_copy_vector",
    "t_copy.out",
    torch.ops.aten.t_copy.default,
    one((3,)),
    ("f32",),
    non_core=("t_copy.default",),
)
# A tensor .detach()-ed in forward (as Llama-style decoders do with their caches) is
# traced as aten::alias, which to_edge turns into its copy variant.
case("alias_copy", "alias_copy.out", lambda x: x.detach(), one((2, 3)), ALL, dynamic=batch_dim)
case("view", "view_copy.out", lambda x: x.view(2, 6), one(), ALL)
case(
    "view_dynamic",
    ("view_copy.out", "sym_size.int", "executorch_prim::mul.Scalar"),
    lambda x: x.reshape(x.shape[0] * x.shape[1]),
    one(),
    ("f32",),
    dynamic=lambda n: ({0: Dim("rows", min=2, max=16), 1: Dim("cols", min=2, max=16)},),
)
case("unsqueeze", "unsqueeze_copy.out", lambda x: x.unsqueeze(1), one(), ALL)
case("squeeze_dims", "squeeze_copy.dims_out", lambda x: x.squeeze((0, 2)), one((1, 3, 1, 4)), ALL)
case("expand", "expand_copy.out", lambda x: x.expand(2, 3, 4), one((3, 1)), ALL)
case("select", "select_copy.int_out", lambda x: x[1], one(), ALL)
case("select_negative", "select_copy.int_out", lambda x: x.select(2, -1), one((2, 3, 4)), ("f32",))
case("slice", "slice_copy.Tensor_out", lambda x: x[:, 1:4:2], one((3, 5)), ALL)
case(
    "slice_dynamic",
    ("slice_copy.Tensor_out",),
    lambda x: x[:, 1:3] + 0,
    one(),
    ("f32",),
    dynamic=batch_dim,
)
case("flip", "flip.out", lambda x: torch.flip(x, (0, 1)), one(), ALL)
# to_edge rewrites tril/triu as a where over arange masks, stack as cat of views, unless kept.
case("tril", "tril.out", torch.tril, one(), ALL, non_core=("tril.default",))
case("triu", "triu.out", lambda x: torch.triu(x, 1), one(), ALL, non_core=("triu.default",))
case("repeat", "repeat.out", lambda x: x.repeat(2, 1, 3), one(), ALL)
case("cat", "cat.out", lambda x, y: torch.cat([x, y], 1), two((3, 4), (3, 2)), ALL)
case(
    "cat_three",
    "cat.out",
    lambda x, y, z: torch.cat([x, y, z]),
    lambda g, d: (g.t((1, 4), d), g.t((2, 4), d), g.t((3, 4), d)),
    ("f32",),
)
case("cat_dynamic", "cat.out", lambda x, y: torch.cat([x, y]), two(), ("f32",), dynamic=batch_dim)
case(
    "stack",
    "stack.out",
    lambda x, y: torch.stack([x, y], 1),
    two(),
    ALL,
    non_core=("stack.default",),
)
case("split", "split_with_sizes_copy.out", lambda x: torch.split(x, 2), one((5, 3)), ALL)
case(
    "split_with_sizes",
    "split_with_sizes_copy.out",
    lambda x: torch.split(x, [1, 3], 1),
    one(),
    ("f32", "i64"),
)
case(
    "split_copy",
    "split_copy.Tensor_out",
    lambda x: torch.ops.aten.split_copy.Tensor(x, 2),
    one((5, 3)),
    ("f32", "i32"),
    non_core=("split_copy.Tensor",),
)
case(
    "embedding",
    "embedding.out",
    F.embedding,
    lambda g, d: (g.index((2, 3), 5), g.t((5, 4), d)),
    ("f32", "f16", "bf16", "f64", "i64"),
)
case(
    "index_select",
    "index_select.out",
    lambda x, i: torch.index_select(x, 1, i),
    lambda g, d: (g.t((3, 4), d), g.index((3,), 4)),
    ALL,
)
case(
    "gather",
    "gather.out",
    lambda x, i: torch.gather(x, 1, i),
    lambda g, d: (g.t((3, 4), d), g.index((3, 2), 4)),
    ALL,
)
case(
    "index",
    "index.Tensor_out",
    lambda x, i: x[i],
    lambda g, d: (g.t((4, 3), d), g.index((2,), 4)),
    ALL,
)
case(
    "index_two",
    "index.Tensor_out",
    lambda x, i, j: x[i, :, j],
    lambda g, d: (g.t((4, 2, 3), d), g.index((2,), 4), g.index((2,), 3)),
    ("f32", "i32"),
)
case(
    "index_bool_mask_rows",
    "index.Tensor_out",
    lambda x, i: x[:, i],
    lambda g, d: (g.t((2, 4), d), g.index((3,), 4)),
    ("f32",),
)

# --- creation -------------------------------------------------------------------------
case("full", "full.out", lambda x: torch.full((2, 3), 1.5) + x, one((2, 3)), ("f32",))
case(
    "full_int",
    "full.out",
    lambda x: torch.full((2, 3), 7, dtype=x.dtype),
    one((1,)),
    ("i32", "i64", "f64", "u8"),
)
case("full_like", "full_like.out", lambda x: torch.full_like(x, 2), one(), ALL)
case(
    "arange",
    "arange.start_out",
    lambda x: torch.arange(x.shape[0], dtype=x.dtype) + x,
    one((4,)),
    ("f32", "i64", "i32"),
    dynamic=batch_dim,
)
# arange(end) becomes arange.start_step unless kept.
case(
    "arange_end",
    "arange.out",
    lambda x: torch.arange(x.shape[0], dtype=x.dtype) * x,
    one((4,)),
    ("f32", "i64"),
    dynamic=batch_dim,
    non_core=("arange.default",),
)
case(
    "arange_step",
    "arange.start_out",
    lambda x: torch.arange(1, 10, 3, dtype=x.dtype) * x,
    one((3,)),
    ("f32", "i64"),
)

# --- dim order ------------------------------------------------------------------------
case(
    "to_channels_last",
    "dim_order_ops::_to_dim_order_copy.out",
    lambda x: x.to(memory_format=torch.channels_last) + 1,
    one((1, 2, 3, 4)),
    ("f32",),
)
case(
    "to_dtype",
    "dim_order_ops::_to_dim_order_copy.out",
    lambda x: x.to(torch.float64),
    one(),
    ALL,
)
case(
    "clone_channels_last",
    "dim_order_ops::_clone_dim_order.out",
    lambda x: x.clone(memory_format=torch.channels_last),
    one((1, 2, 3, 4)),
    ("f32", "i32"),
)
case(
    "clone_contiguous",
    "dim_order_ops::_clone_dim_order.out",
    lambda x: x.clone(memory_format=torch.contiguous_format),
    lambda g, d: (g.t((1, 2, 3, 4), d).to(memory_format=torch.channels_last),),
    ("f32",),
)
case(
    "add_channels_last",
    "add.out",
    torch.add,
    lambda g, d: tuple(
        g.t((1, 3, 2, 2), d).to(memory_format=torch.channels_last) for _ in range(2)
    ),
    ("f32",),
)

# --- prim operators: symbolic-shape arithmetic ------------------------------------------
_ROWS_COLS = lambda n: ({0: Dim("rows", min=2, max=16), 1: Dim("cols", min=2, max=16)},)  # noqa: E731
case(
    "sym_truediv",
    ("executorch_prim::truediv.Scalar",),
    lambda x: x * (x.shape[0] / 2),
    one(),
    ("f32",),
    dynamic=_ROWS_COLS,
)
case(
    "local_scalar_dense",
    ("_local_scalar_dense",),
    lambda x, y: y * x[0].item(),
    lambda g, d: (g.t((2,), d), g.t((3,), d)),
    ("f32",),
)
case(
    "scalar_tensor",
    ("scalar_tensor.out",),
    lambda x: torch.scalar_tensor(x[1].item(), dtype=x.dtype),
    one((3,)),
    REAL,
)
for _name, _expr in [
    ("add", lambda r, c: r + c),
    ("sub", lambda r, c: r - c + 16),
    ("floordiv", lambda r, c: r // 2 + 1),
    ("mod", lambda r, c: r % c + 1),
    ("neg", lambda r, c: -r + 20),
    ("ceil", lambda r, c: math.ceil(r / c)),
    ("trunc", lambda r, c: math.trunc(r / 2) + 1),
    ("round", lambda r, c: round(r / c) + 1),
]:
    case(
        f"prim_{_name}",
        (f"executorch_prim::{_name}.Scalar",),
        lambda x, _e=_expr: torch.zeros(_e(x.shape[0], x.shape[1])) + 1,
        one(),
        ("f32",),
        dynamic=_ROWS_COLS,
    )
case(
    "et_view",
    ("executorch_prim::et_view.default",),
    lambda x: (x + 1).view(-1) + 1,
    one(),
    ("f32",),
    dynamic=_ROWS_COLS,
)


def _cond(predicate: Callable[[Any, Any], Any]) -> Callable[[torch.Tensor], torch.Tensor]:
    """A branch on a comparison of two dynamic sizes: the program jumps on a prim result."""
    return lambda x: torch.cond(
        predicate(x.shape[0], x.shape[1]), lambda a: a + 1, lambda a: a - 1, (x,)
    )


for _name, _predicate in [
    ("eq", lambda r, c: r == c),
    ("gt", lambda r, c: r > c),
    ("lt", lambda r, c: r < c),
    ("ge", lambda r, c: r >= c),
    ("le", lambda r, c: r <= c),
]:
    case(
        f"prim_{_name}",
        (f"executorch_prim::{_name}.Scalar",),
        _cond(_predicate),
        one(),
        ("f32",),
        dynamic=_ROWS_COLS,
    )
case(
    "map_copy_index",
    ("executorch_prim::et_copy_index.tensor",),
    lambda x: control_flow.map(lambda row: row * 2 + 1, x),
    one(),
    ("f32",),
)


# === quantized library (quantized_decomposed::*, kernels/quantized/) ===================
# The functional operators come from torch's decomposed quantization library and their out
# variants from ExecuTorch's (without them to_executorch fails with "Missing out variants").
# References are PyTorch's decomposed implementations, which round halves to even as the
# kernels do (Note [Quantized rounding] in kernels/quantized/quant_util.h). PyTorch's
# quantize takes float32 (and half, which it widens) only, so the cases run f32 and f16.
import executorch.kernels.quantized  # noqa: E402, F401
import torch.ao.quantization.fx._decomposed  # noqa: E402, F401

QD = torch.ops.quantized_decomposed
QUANT_FLOAT = ("f32", "f16")


def _quant_input(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    """Values spanning past every range below, halves of the scale included."""
    x = g.t((3, 8), torch.float32, -3, 3)
    x[0, :4] = torch.tensor([0.025, -0.025, 0.075, 400.0])
    return (x.to(d),)


case(
    "quantize_per_tensor",
    "quantized_decomposed::quantize_per_tensor.out",
    lambda x: (
        QD.quantize_per_tensor(x, 0.05, -3, -128, 127, torch.int8),
        QD.quantize_per_tensor(x, 0.02, 128, 0, 255, torch.uint8),
        QD.quantize_per_tensor(x, 0.001, 7, -1000, 1000, torch.int16),
        QD.quantize_per_tensor(x, 0.0001, 0, -(2**31), 2**31 - 1, torch.int32),
    ),
    _quant_input,
    QUANT_FLOAT,
)
case(
    "quantize_per_tensor_dynamic",
    "quantized_decomposed::quantize_per_tensor.out",
    lambda x: QD.quantize_per_tensor(x, 0.05, 0, -128, 127, torch.int8),
    _quant_input,
    ("f32",),
    dynamic=batch_dim,
)
case(
    "quantize_per_tensor_tensor",
    "quantized_decomposed::quantize_per_tensor.Tensor_out",
    lambda x, s, z: QD.quantize_per_tensor.tensor(x, s, z, -128, 127, torch.int8),
    lambda g, d: (
        *_quant_input(g, d),
        torch.tensor([0.03], dtype=torch.float64),
        torch.tensor([-2], dtype=torch.int64),
    ),
    QUANT_FLOAT,
)


def _quantized(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    return (
        g.t((3, 8), torch.int8, -128, 127),
        g.t((2, 5), torch.uint8, 0, 255),
        g.t((4,), torch.int16, -3000, 3000),
        g.t((4,), torch.int32, -100000, 100000),
    )


case(
    "dequantize_per_tensor",
    "quantized_decomposed::dequantize_per_tensor.out",
    lambda a, b, c, e: (
        QD.dequantize_per_tensor(a, 0.05, -3, -128, 127, torch.int8),
        QD.dequantize_per_tensor(b, 0.02, 128, 0, 255, torch.uint8),
        QD.dequantize_per_tensor(c, 0.001, 7, -3000, 3000, torch.int16),
        QD.dequantize_per_tensor(e, 0.0001, 0, -100000, 100000, torch.int32),
    ),
    _quantized,
    ("f32",),
)
# PyTorch computes in the out dtype, the kernel in float and rounds once to it: the same
# values with a scale of a power of two, which the programs use for Half and Double outs.
case(
    "dequantize_per_tensor_out_dtype",
    "quantized_decomposed::dequantize_per_tensor.out",
    lambda a: (
        QD.dequantize_per_tensor(a, 0.125, 3, -128, 127, torch.int8, out_dtype=torch.float16),
        QD.dequantize_per_tensor(a, 0.125, 3, -128, 127, torch.int8, out_dtype=torch.float64),
        QD.dequantize_per_tensor(a, 0.5, 3, -128, 127, torch.int8, out_dtype=torch.float32),
    ),
    lambda g, d: (g.t((3, 8), torch.int8, -128, 127),),
    ("f32",),
)
case(
    "dequantize_per_tensor_tensor",
    "quantized_decomposed::dequantize_per_tensor.Tensor_out",
    lambda q, s, z: QD.dequantize_per_tensor.tensor(q, s, z, -128, 127, torch.int8),
    lambda g, d: (
        g.t((3, 8), torch.int8, -128, 127),
        torch.tensor([0.03], dtype=torch.float64),
        torch.tensor([-2], dtype=torch.int64),
    ),
    ("f32",),
)


def _per_channel(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    """x (3, 4, 5) and per-channel parameters for axis 1 (4 channels)."""
    x = g.t((3, 4, 5), torch.float32, -3, 3).to(d)
    scales = torch.tensor([0.01, 0.03, 0.07, 0.2], dtype=torch.float64)
    return x, scales, torch.tensor([0, -4, 9, 2])


case(
    "quantize_per_channel",
    "quantized_decomposed::quantize_per_channel.out",
    lambda x, s, z: (
        QD.quantize_per_channel(x, s, z, 1, -128, 127, torch.int8),
        QD.quantize_per_channel(x, s, z + 100, -2, 0, 255, torch.uint8),
        QD.quantize_per_channel(x.transpose(0, 1).contiguous(), s, z, 0, -500, 500, torch.int16),
    ),
    _per_channel,
    QUANT_FLOAT,
)


def _per_channel_quantized(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    scales = torch.tensor([0.01, 0.03, 0.07, 0.2], dtype=torch.float64)
    return g.t((3, 4, 5), torch.int8, -128, 127), scales, torch.tensor([0, -4, 9, 2])


case(
    "dequantize_per_channel",
    "quantized_decomposed::dequantize_per_channel.out",
    lambda q, s, z: (
        QD.dequantize_per_channel(q, s, z, 1, -128, 127, torch.int8),
        QD.dequantize_per_channel(q, s.float(), None, -2, -128, 127, torch.int8),
        QD.dequantize_per_channel(q.transpose(0, 1).contiguous(), s, z, 0, -128, 127, torch.int8),
    ),
    _per_channel_quantized,
    ("f32",),
)
# Half and Double outs with power-of-two scales (see dequantize_per_tensor_out_dtype).
case(
    "dequantize_per_channel_out_dtype",
    "quantized_decomposed::dequantize_per_channel.out",
    lambda q, s, z: (
        QD.dequantize_per_channel(q, s, z, 0, -128, 127, torch.int8, out_dtype=torch.float16),
        QD.dequantize_per_channel(q, s, None, 0, -128, 127, torch.int8, out_dtype=torch.float64),
    ),
    lambda g, d: (
        g.t((3, 6), torch.int8, -128, 127),
        torch.tensor([0.5, 0.125, 2.0], dtype=torch.float64),
        torch.tensor([1, 0, -3]),
    ),
    ("f32",),
)
# ExecuTorch's choose_qparams kernels use their own rule (ExecuTorch's runtime is the
# reference: kernels/quantized/qparams.h); two programs also quantize with the chosen
# parameters, as dynamically quantized models do.


def _and_quantized(x: torch.Tensor, qparams: Any) -> Any:
    scale, zero_point = qparams
    q = QD.quantize_per_tensor.tensor(x, scale, zero_point, -128, 127, torch.int8)
    return scale, zero_point, q


def _and_quantized_per_token(x: torch.Tensor, qparams: Any) -> Any:
    scales, zero_points = qparams
    return scales, zero_points, QD.quantize_per_token(x, scales, zero_points, -128, 127, torch.int8)


case(
    "choose_qparams",
    "quantized_decomposed::choose_qparams.Tensor_out",
    lambda x: _and_quantized(x, QD.choose_qparams.tensor(x, -128, 127, 1e-7, torch.int8)),
    lambda g, d: (g.t((3, 8), torch.float32, -2, 5),),
    ("f32",),
    reference="executorch",
)
case(
    "choose_qparams_small_range",
    "quantized_decomposed::choose_qparams.Tensor_out",
    lambda x: QD.choose_qparams.tensor(x * 1e-6, 0, 255, 1e-7, torch.uint8),
    lambda g, d: (g.t((4, 4), torch.float32, 0, 3),),
    ("f32",),
    reference="executorch",
)
case(
    "choose_qparams_per_token_asymmetric",
    "quantized_decomposed::choose_qparams_per_token_asymmetric.out",
    lambda x: _and_quantized_per_token(x, QD.choose_qparams_per_token_asymmetric(x, torch.int8)),
    lambda g, d: (g.t((2, 3, 8), torch.float32, -3, 6),),
    ("f32",),
    reference="executorch",
)
case(
    "choose_qparams_per_token_asymmetric_dynamic",
    "quantized_decomposed::choose_qparams_per_token_asymmetric.out",
    lambda x: QD.choose_qparams_per_token_asymmetric(x, torch.int8),
    lambda g, d: (g.t((5, 8), torch.float32, -1, 4),),
    ("f32",),
    dynamic=batch_dim,
    reference="executorch",
)


def _per_token(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    scales = torch.tensor([[0.01], [0.03], [0.05], [0.2]], dtype=torch.float64)
    x = g.t((4, 6), torch.float32, -3, 3).to(d)
    return x, scales, torch.tensor([[0], [-4], [9], [2]])


case(
    "quantize_per_token",
    "quantized_decomposed::quantize_per_token.out",
    lambda x, s, z: (
        QD.quantize_per_token(x, s, z, -128, 127, torch.int8),
        QD.quantize_per_token(x, s, z + 100, 0, 255, torch.uint8),
    ),
    _per_token,
    QUANT_FLOAT,
)
case(
    "dequantize_per_token",
    "quantized_decomposed::dequantize_per_token.out",
    lambda q, s, z: (
        QD.dequantize_per_token(q, s, z, -128, 127, torch.int8, torch.float32),
        QD.dequantize_per_token(q, s.float(), z, -128, 127, torch.int8, torch.float32),
    ),
    lambda g, d: (g.t((4, 6), torch.int8, -128, 127), *_per_token(g, d)[1:]),
    ("f32",),
)

# Quantized embeddings (ExecuTorch's own operators, registered by its quantization passes):
# weights, scales and zero points are program inputs, the references PyTorch's
# implementations of them (which unpack 4-bit values high nibble first, 2-bit values lowest
# pair first, as the kernels do).
import executorch.exir.passes._quant_patterns_and_replacements  # noqa: E402, F401


def _embedding(bits: int, groups: int, zero_points: bool) -> Inputs:
    """weight (5 rows of 8 values, packed), scales (5,) or (5, groups), indices (2, 3)."""

    def inputs(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
        packed = (5, bits)  # 8 values per row: `bits` bytes
        if bits == 8:
            weight = g.t(packed, torch.int8, -128, 127)
        else:
            weight = torch.randint(0, 256, packed, generator=g.generator).to(torch.uint8)
        shape = (5, groups) if groups > 1 else (5,)
        scales = g.t(shape, torch.float32, 0.01, 0.5).to(d)
        indices = g.index((2, 3), 5)
        if not zero_points:
            return weight, scales, indices
        return weight, scales, g.t(shape, torch.float32, -3, 3).round().to(d), indices

    return inputs


_RANGES = {8: (-128, 127), 4: (-8, 7), 2: (-2, 1)}
for _bits, _name in [(8, "byte"), (4, "4bit"), (2, "2bit")]:
    _low, _high = _RANGES[_bits]
    _op = getattr(QD, f"embedding_{_name}")
    case(
        f"embedding_{_name}",
        f"quantized_decomposed::embedding_{_name}.out",
        lambda w, s, z, i, _op=_op, _l=_low, _h=_high: _op(w, s, z, _l, _h, i),
        _embedding(_bits, 1, True),
        ("f32", "f16"),
    )
    case(
        f"embedding_{_name}_groups_no_zero_points",
        f"quantized_decomposed::embedding_{_name}.out",
        lambda w, s, i, _op=_op, _l=_low, _h=_high: _op(w, s, None, _l, _h, i),
        _embedding(_bits, 2, False),
        ("f32",),
    )
    case(
        f"embedding_{_name}_dtype",
        f"quantized_decomposed::embedding_{_name}.dtype_out",
        lambda w, s, z, i, _op=_op, _l=_low, _h=_high: _op.dtype(
            w, s, z, _l, _h, i, dtype=torch.float32
        ),
        _embedding(_bits, 4, True),
        ("f32",),
    )
    # Half scales, a Float out: the kernel reads the scales in their own dtype and computes
    # in float, as ExecuTorch's does, where PyTorch dequantizes in Half (so ExecuTorch's
    # runtime is the reference). Zero points must have the out's dtype in ExecuTorch's
    # kernel and the scales' in PyTorch's, so this call has none.
    case(
        f"embedding_{_name}_dtype_half_scales",
        f"quantized_decomposed::embedding_{_name}.dtype_out",
        lambda w, s, i, _op=_op, _l=_low, _h=_high: _op.dtype(
            w, s, None, _l, _h, i, dtype=torch.float32
        ),
        _embedding(_bits, 2, False),
        ("f16",),
        reference="executorch",
    )


# quantized_decomposed::add comes from ExecuTorch's QuantFusionPass, which fuses a uint8
# dequantize -> add -> quantize into one operator; ExecuTorch's runtime is the reference
# (the eager unfused graph rounds through PyTorch's inverse scale, Note [Quantized rounding]).
def _fused_add(a_scale: float, b_scale: float, out_scale: float) -> Callable[..., Any]:
    def fn(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        x = QD.dequantize_per_tensor(a, a_scale, 3, 0, 255, torch.uint8)
        y = QD.dequantize_per_tensor(b, b_scale, 10, 0, 255, torch.uint8)
        return QD.quantize_per_tensor(x + y, out_scale, 5, 0, 255, torch.uint8)

    return fn


def _uint8_pair(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    return g.t((3, 8), torch.uint8, 0, 255), g.t((3, 8), torch.uint8, 0, 255)


case(
    "quantized_add",
    "quantized_decomposed::add.out",
    _fused_add(0.1, 0.05, 0.2),
    _uint8_pair,
    ("u8",),
    reference="executorch",
    fuse_quantized=True,
)
case(
    "quantized_add_saturating",
    "quantized_decomposed::add.out",
    _fused_add(0.5, 0.25, 0.1),
    _uint8_pair,
    ("u8",),
    reference="executorch",
    fuse_quantized=True,
)


# mixed_mm and mixed_linear: ExecuTorch declares their functional forms without an
# implementation or a fake one, so torch.export cannot trace them as they are. We register
# both for this script only: the shapes, and an implementation calling the out variant,
# whose CPU kernel `executorch.kernels.quantized` registers (ExecuTorch's own kernel, which
# is therefore the reference, as ExecuTorch's runtime is too).
def _mixed_mm_shape(x: torch.Tensor, w: torch.Tensor, s: torch.Tensor, z: Any) -> torch.Tensor:
    return x.new_empty((x.shape[0], w.shape[1]))


def _mixed_linear_shape(
    x: torch.Tensor, w: torch.Tensor, s: torch.Tensor, z: Any, dtype: Any = None
) -> torch.Tensor:
    return x.new_empty((x.shape[0], w.shape[0]), dtype=dtype or x.dtype)


def _mixed_mm_cpu(x: torch.Tensor, w: torch.Tensor, s: torch.Tensor, z: Any) -> torch.Tensor:
    return QD.mixed_mm.out(x, w, s, z, out=_mixed_mm_shape(x, w, s, z))


def _mixed_linear_cpu(
    x: torch.Tensor, w: torch.Tensor, s: torch.Tensor, z: Any, dtype: Any = None
) -> torch.Tensor:
    out = _mixed_linear_shape(x, w, s, z, dtype)
    return QD.mixed_linear.out(x, w, s, z, dtype, out=out)


torch.library.register_fake("quantized_decomposed::mixed_mm", _mixed_mm_shape)
torch.library.register_fake("quantized_decomposed::mixed_linear", _mixed_linear_shape)
torch.library.impl("quantized_decomposed::mixed_mm", "CPU", _mixed_mm_cpu)
torch.library.impl("quantized_decomposed::mixed_linear", "CPU", _mixed_linear_cpu)

case(
    "mixed_mm",
    "quantized_decomposed::mixed_mm.out",
    lambda x, w, s: QD.mixed_mm(x, w, s, None),
    lambda g, d: (
        g.t((3, 5), torch.float32, -2, 2),
        g.t((5, 4), torch.int8, -128, 127),
        g.t((5,), torch.float32, 0.001, 0.05),
    ),
    ("f32",),
    reference="executorch",
)
case(
    "mixed_linear",
    "quantized_decomposed::mixed_linear.out",
    lambda x, w, s, s2: (
        QD.mixed_linear(x, w, s, None),
        QD.mixed_linear(x, w, s2, None, torch.float32),
    ),
    lambda g, d: (
        g.t((3, 10), torch.float32, -2, 2),
        g.t((4, 10), torch.int8, -128, 127),
        g.t((4,), torch.float32, 0.001, 0.05),
        g.t((4, 4), torch.float32, 0.001, 0.05),  # 4 groups of 3, 3, 3 and 1 columns
    ),
    ("f32",),
    reference="executorch",
)


# --- neural-network, padding, sampling and backward operators (issue 11, part 3) -------
# glu and var_mean decompose unless kept (`non_core`); group norm and batch norm without
# running statistics reach the program as they are.
case("glu", "glu.out", F.glu, one((3, 4)), FLOAT, non_core=("glu.default",))
case(
    "glu_dim0",
    "glu.out",
    lambda x: F.glu(x, 0),
    one((4, 3, 2)),
    FLOAT,
    non_core=("glu.default",),
)
case(
    "glu_dynamic",
    "glu.out",
    F.glu,
    one((3, 4)),
    ("f32",),
    dynamic=batch_dim,
    non_core=("glu.default",),
)
case(
    "var_mean",
    "var_mean.correction_out",
    lambda x: torch.var_mean(x, 1),
    one((3, 4, 2)),
    FLOAT,
    non_core=("var_mean.correction",),
)
case(
    "var_mean_all_dims",
    "var_mean.correction_out",
    lambda x: torch.var_mean(x),
    one((3, 4)),
    FLOAT,
    non_core=("var_mean.correction",),
)
case(
    "var_mean_correction_keepdim",
    "var_mean.correction_out",
    lambda x: torch.var_mean(x, (0, 2), correction=0, keepdim=True),
    one((3, 4, 2)),
    FLOAT,
    non_core=("var_mean.correction",),
)
case(
    "group_norm",
    "native_group_norm.out",
    lambda x, w, b: F.group_norm(x, 2, w, b, eps=1e-3),
    lambda g, d: (g.t((2, 4, 3, 3), d), g.t((4,), d), g.t((4,), d)),
    FLOAT,
)
case(
    "group_norm_no_affine",
    "native_group_norm.out",
    lambda x: F.group_norm(x, 3),
    one((2, 6, 5)),
    FLOAT,
)
case(
    "batch_norm_batch_stats",
    "_native_batch_norm_legit.no_stats_out",
    lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True, eps=1e-3),
    lambda g, d: (g.t((2, 3, 4, 4), d), g.t((3,), d), g.t((3,), d)),
    FLOAT,
)
case(
    "batch_norm_batch_stats_no_affine",
    "_native_batch_norm_legit.no_stats_out",
    lambda x: F.batch_norm(x, None, None, training=True),
    one((4, 3, 5)),
    FLOAT,
    dynamic=batch_dim,
)
for _n, _shape, _pad in [
    (1, (2, 5), (2, 1)),
    (2, (1, 2, 4, 5), (1, 3, 2, 0)),
    (3, (2, 3, 4, 5), (1, 2, 0, 3, 2, 1)),
]:
    for _kind, _mode in [("reflection", "reflect"), ("replication", "replicate")]:
        case(
            f"{_kind}_pad{_n}d",
            f"{_kind}_pad{_n}d.out",
            lambda x, _p=_pad, _m=_mode: F.pad(x, _p, mode=_m),
            one(_shape),
            ALL,
            non_core=(f"{_kind}_pad{_n}d.default",),
        )
case(
    "reflection_pad2d_dynamic",
    "reflection_pad2d.out",
    lambda x: F.pad(x, (1, 1, 2, 1), mode="reflect"),
    one((3, 2, 4, 5)),
    ("f32",),
    dynamic=batch_dim,
    non_core=("reflection_pad2d.default",),
)
case(
    "replication_pad1d_crop",
    "replication_pad1d.out",
    lambda x: torch.ops.aten.replication_pad1d(x, [-1, 3]),
    one((2, 3, 5)),
    ("f32", "i64"),
    non_core=("replication_pad1d.default",),
)


def _batch_norm_legit(edge: Any) -> Any:
    """Rewrites inference batch norm into `_native_batch_norm_legit` with training=False.

    torch.export functionalizes that operator (it may write its running statistics) into
    `_native_batch_norm_legit_functional`, which has no out variant, so `to_executorch`
    fails ("Missing out variants"); a train-mode BatchNorm module ends the same way. The
    edge graph takes the mutable operator back, as a pass would write it, and ExecuTorch's
    own runtime runs the result (its portable kernel refuses training=True)."""
    from executorch.exir.dialects._ops import ops as exir_ops
    from executorch.exir.pass_base import ExportPass

    class ToLegit(ExportPass):
        def call_operator(self, op: Any, args: Any, kwargs: Any, meta: Any) -> Any:
            if op == exir_ops.edge.aten._native_batch_norm_legit_no_training.default:
                x, w, b, mean, var, momentum, eps = args
                op = exir_ops.edge.aten._native_batch_norm_legit.default
                args = (x, w, b, mean, var, False, momentum, eps)
            return super().call_operator(op, args, kwargs, meta)

    return edge.transform([ToLegit()])


case(
    "batch_norm_legit",
    "_native_batch_norm_legit.out",
    lambda x, m, v, w, b: F.batch_norm(x, m, v, w, b, training=False, eps=1e-3),
    lambda g, d: (
        g.t((2, 3, 4, 4), d),
        g.t((3,), d),
        g.positive((3,), d),
        g.t((3,), d),
        g.t((3,), d),
    ),
    FLOAT,
    edge_transform=_batch_norm_legit,
)
case(
    "batch_norm_legit_no_affine",
    "_native_batch_norm_legit.out",
    lambda x, m, v: F.batch_norm(x, m, v, training=False),
    lambda g, d: (g.t((2, 3, 5), d), g.t((3,), d), g.positive((3,), d)),
    ("f32",),
    edge_transform=_batch_norm_legit,
)


def _grid_inputs(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    """An image and a grid reaching past [-1, 1], so every padding mode matters."""
    return (g.t((2, 3, 5, 6), d), g.t((2, 4, 3, 2), d, -1.3, 1.3))


for _mode in ("bilinear", "nearest", "bicubic"):
    for _padding in ("zeros", "border", "reflection"):
        case(
            f"grid_sampler_{_mode}_{_padding}",
            "grid_sampler_2d.out",
            lambda x, grid, _m=_mode, _p=_padding: F.grid_sample(
                x, grid, mode=_m, padding_mode=_p, align_corners=False
            ),
            _grid_inputs,
            FLOAT,
        )
for _mode, _padding in (("bilinear", "reflection"), ("bicubic", "border"), ("nearest", "zeros")):
    case(
        f"grid_sampler_{_mode}_{_padding}_align_corners",
        "grid_sampler_2d.out",
        lambda x, grid, _m=_mode, _p=_padding: F.grid_sample(
            x, grid, mode=_m, padding_mode=_p, align_corners=True
        ),
        _grid_inputs,
        ("f32", "f64"),
    )
case(
    "upsample_bilinear2d_aa_down",
    "_upsample_bilinear2d_aa.out",
    lambda x: F.interpolate(x, size=(3, 4), mode="bilinear", antialias=True),
    lambda g, d: (g.t((1, 2, 7, 9), d, 0, 200),),
    ("u8",) + FLOAT,
)
case(
    "upsample_bilinear2d_aa_mixed",
    "_upsample_bilinear2d_aa.out",
    lambda x: F.interpolate(x, size=(4, 11), mode="bilinear", antialias=True),
    lambda g, d: (g.t((2, 3, 9, 5), d, 0, 255),),
    ("u8", "f32"),
)
case(
    "upsample_bilinear2d_aa_up_align_corners",
    "_upsample_bilinear2d_aa.out",
    lambda x: F.interpolate(x, size=(6, 5), mode="bilinear", antialias=True, align_corners=True),
    one((2, 1, 3, 4)),
    FLOAT,
)
case(
    "upsample_bilinear2d_aa_scales",
    "_upsample_bilinear2d_aa.out",
    lambda x: F.interpolate(
        x, scale_factor=(0.4, 0.7), mode="bilinear", antialias=True, recompute_scale_factor=False
    ),
    one((1, 2, 8, 7)),
    ("f32",),
)
case("cdist", "_cdist_forward.out", torch.cdist, two((2, 3, 4), (2, 5, 4)), FLOAT)
for _p in (0.0, 1.0, 3.0, math.inf):
    case(
        f"cdist_p{_p:g}",
        "_cdist_forward.out",
        lambda a, b, _p=_p: torch.cdist(a, b, p=_p),
        lambda g, d: (g.t((3, 4), d).round(), g.t((2, 5, 4), d).round()),
        ("f32",),
    )
case(
    "cdist_broadcast_compute_mode",
    "_cdist_forward.out",
    lambda a, b: torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"),
    two((2, 1, 3, 4), (3, 5, 4)),
    ("f32", "f64"),
)
case(
    "cdist_dynamic",
    "_cdist_forward.out",
    torch.cdist,
    two((4, 3), (4, 3)),
    ("f32",),
    dynamic=batch_dim,
)
case("pdist", "_pdist_forward.out", F.pdist, one((5, 4)), FLOAT)
for _p in (0.0, 1.0, 0.5, math.inf):
    case(
        f"pdist_p{_p:g}".replace(".", "_"),
        "_pdist_forward.out",
        lambda x, _p=_p: F.pdist(x, p=_p),
        lambda g, d: (g.t((5, 3), d).round(),),
        ("f32",),
    )


# Backward operators: programs call them directly, as a training graph's joint program does.
def _conv_backward(
    stride: int = 1, padding: int = 0, dilation: int = 1, groups: int = 1, mask: Any = None
) -> Callable[..., Any]:
    mask = mask or [True, True, True]

    def backward(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor) -> Any:
        grads = torch.ops.aten.convolution_backward(
            dy,
            x,
            w,
            [w.shape[0]],
            [stride, stride],
            [padding, padding],
            [dilation, dilation],
            False,
            [0, 0],
            groups,
            mask,
        )
        return tuple(g for g, wanted in zip(grads, mask, strict=True) if wanted)

    return backward


def _conv_backward_inputs(
    x: tuple[int, ...], w: tuple[int, ...], dy: tuple[int, ...]
) -> Callable[[Gen, torch.dtype], tuple[torch.Tensor, ...]]:
    return lambda g, d: (g.t(dy, d), g.t(x, d), g.t(w, d))


case(
    "convolution_backward",
    "convolution_backward.out",
    _conv_backward(),
    _conv_backward_inputs((2, 2, 5, 5), (3, 2, 3, 3), (2, 3, 3, 3)),
    FLOAT,
)
case(
    "convolution_backward_stride_padding_dilation",
    "convolution_backward.out",
    _conv_backward(stride=2, padding=2, dilation=2),
    _conv_backward_inputs((1, 2, 7, 6), (4, 2, 3, 2), (1, 4, 4, 4)),
    ("f32", "f64"),
)
case(
    "convolution_backward_groups",
    "convolution_backward.out",
    _conv_backward(groups=2, padding=1),
    _conv_backward_inputs((2, 4, 4, 4), (6, 2, 3, 3), (2, 6, 4, 4)),
    ("f32",),
)
case(
    "convolution_backward_input_only",
    "convolution_backward.out",
    _conv_backward(mask=[True, False, False]),
    _conv_backward_inputs((1, 2, 4, 4), (3, 2, 2, 2), (1, 3, 3, 3)),
    ("f32",),
)
case(
    "convolution_backward_weight_bias",
    "convolution_backward.out",
    _conv_backward(mask=[False, True, True]),
    _conv_backward_inputs((1, 2, 4, 4), (3, 2, 2, 2), (1, 3, 3, 3)),
    ("f32",),
)


def _max_pool_backward(
    kernel: int, stride: int, padding: int = 0, ceil_mode: bool = False
) -> Callable[..., Any]:
    def backward(dy: torch.Tensor, x: torch.Tensor) -> Any:
        args = ([kernel] * 2, [stride] * 2, [padding] * 2, [1, 1], ceil_mode)
        _, indices = torch.ops.aten.max_pool2d_with_indices(x, *args)
        return torch.ops.aten.max_pool2d_with_indices_backward(dy, x, *args, indices)

    return backward


case(
    "max_pool2d_backward",
    "max_pool2d_with_indices_backward.grad_input",
    _max_pool_backward(2, 2),
    lambda g, d: (g.t((2, 3, 2, 2), d), g.t((2, 3, 4, 5), d)),
    FLOAT,
)
# Overlapping windows: one input position collects several gradients.
case(
    "max_pool2d_backward_overlapping",
    "max_pool2d_with_indices_backward.grad_input",
    _max_pool_backward(3, 1, padding=1, ceil_mode=True),
    lambda g, d: (g.t((3, 4, 4), d), g.t((3, 4, 4), d)),
    ("f32", "f64"),
)
# --- elementwise math, creation and random operators (issue 11, ops_math) ---------------
# Domains kept inside each function's (acos of 2 is NaN in both, but proves little).
for _name, _fn, _low, _high in [
    ("acos", torch.acos, -1, 1),
    ("asin", torch.asin, -1, 1),
    ("atan", torch.atan, -4, 4),
    ("atanh", torch.atanh, -0.95, 0.95),
    ("acosh", torch.acosh, 1, 5),
    ("asinh", torch.asinh, -4, 4),
    ("cosh", torch.cosh, -4, 4),
    ("sinh", torch.sinh, -4, 4),
    ("tan", torch.tan, -1.4, 1.4),
    ("expm1", torch.expm1, -4, 4),
    ("log10", torch.log10, 0.1, 8),
    ("log1p", torch.log1p, -0.9, 8),
    ("log2", torch.log2, 0.1, 8),
]:
    case(
        _name,
        f"{_name}.out",
        _fn,
        lambda g, d, _l=_low, _h=_high: (g.t((3, 4), d, _l, _h),),
        ALL,
    )
case("log1p_dynamic", "log1p.out", torch.log1p, one(positive=True), ("f32",), dynamic=batch_dim)
case("trunc", "trunc.out", torch.trunc, lambda g, d: (g.t((3, 4), d) * 1.5,), REAL)
# logit of an integer or bool is Float (inf and NaN outside (0, 1), as in torch); of Half
# and BFloat16 it is refused (expected.toml [known_failures]).
# to_edge decomposes logit (into log, div and where) unless it is preserved.
case(
    "logit",
    "logit.out",
    torch.logit,
    lambda g, d: (g.t((3, 4), d, 0, 1),),
    ALL,
    non_core=("logit.default",),
)
case(
    "logit_eps",
    "logit.out",
    lambda x: torch.logit(x, eps=0.2),
    lambda g, d: (g.t((3, 4), d, 0, 1),),
    ("f32", "f64"),
    non_core=("logit.default",),
)


def _with_specials(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    """Values with NaN and infinities in a floating dtype (integers have none)."""
    x = g.t((3, 4), d)
    if d.is_floating_point:
        x[0, 0], x[1, 1], x[2, 2] = math.nan, math.inf, -math.inf
    return (x,)


case("isnan", "isnan.out", torch.isnan, _with_specials, ALL)
case("isinf", "isinf.out", torch.isinf, _with_specials, ALL)

# to_edge turns floor_divide into div(rounding_mode='floor') and rejects the shifts (not
# in the Core ATen opset) unless they are preserved.
case(
    "floor_divide",
    "floor_divide.out",
    torch.floor_divide,
    two(positive_b=True),
    REAL,
    non_core=("floor_divide.default",),
)
case(
    "floor_divide_broadcast",
    "floor_divide.out",
    torch.floor_divide,
    lambda g, d: (g.t((2, 3, 4), d, -9, 9), -g.positive((3, 1), d)),
    ("i32", "f32"),
    non_core=("floor_divide.default",),
)


def _shift_inputs(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    """Values and shift amounts inside the dtype's width (torch and C++ agree there)."""
    return (g.t((3, 4), d, 0 if d == torch.uint8 else -100, 100), g.t((3, 4), d, 0, 7))


for _dir, _fn in [("left", torch.bitwise_left_shift), ("right", torch.bitwise_right_shift)]:
    case(
        f"bitwise_{_dir}_shift",
        f"bitwise_{_dir}_shift.Tensor_out",
        _fn,
        _shift_inputs,
        ("bool",) + INT,
        non_core=(f"bitwise_{_dir}_shift.Tensor",),
    )
    case(
        f"bitwise_{_dir}_shift_scalar",
        f"bitwise_{_dir}_shift.Tensor_Scalar_out",
        lambda x, _f=_fn: _f(x, 3),
        one(),
        INT,
        non_core=(f"bitwise_{_dir}_shift.Tensor_Scalar",),
    )
case(
    "bitwise_left_shift_dynamic",
    "bitwise_left_shift.Tensor_out",
    torch.bitwise_left_shift,
    _shift_inputs,
    ("i64",),
    dynamic=batch_dim,
    non_core=("bitwise_left_shift.Tensor",),
)
case("pow_scalar_base", "pow.Scalar_out", lambda x: torch.pow(2, x), one(), REAL)
case("pow_float_base", "pow.Scalar_out", lambda x: torch.pow(1.5, x), one(), ("i32", "f32", "f64"))
# to_edge rewrites rsub into sub unless it is preserved.
for _name, _fn, _families in [
    ("rsub", lambda x: torch.rsub(x, 2), REAL),
    ("rsub_alpha", lambda x: torch.rsub(x, 3, alpha=2), REAL),
    ("rsub_float", lambda x: torch.rsub(x, 0.5), ("f32", "i64")),
]:
    case(_name, "rsub.Scalar_out", _fn, one(), _families, non_core=("rsub.Scalar",))

# Whole-tensor reductions; to_edge decomposes them (into amax, amin, mean.dim) unless kept.
for _name in ("max", "min"):
    case(
        f"{_name}_all",
        f"{_name}.unary_out",
        getattr(torch, _name),
        one((3, 4, 2)),
        ALL,
        non_core=(f"{_name}.default",),
    )
case(
    "max_all_dynamic",
    "max.unary_out",
    torch.max,
    one(),
    ("f32",),
    dynamic=batch_dim,
    non_core=("max.default",),
)
case("mean_all", "mean.dtype_out", torch.mean, one((3, 4, 2)), FLOAT, non_core=("mean.default",))
case(
    "mean_all_dtype",
    "mean.dtype_out",
    lambda x: torch.mean(x, dtype=torch.float64),
    one(),
    ("bool",) + INT + ("f32",),
    non_core=("mean.default",),
)


# Creation. to_edge turns zeros, ones and fill into full/full_like unless they are kept.
def _sized(fn: Callable[..., torch.Tensor]) -> Callable[[torch.Tensor], torch.Tensor]:
    """fn(*x.shape, dtype=x.dtype): a creation op sized (and typed) after the input."""
    return lambda x: fn(*x.shape, dtype=x.dtype)


for _name in ("zeros", "ones"):
    case(
        _name,
        f"{_name}.out",
        _sized(getattr(torch, _name)),
        one(),
        ALL,
        non_core=(f"{_name}.default",),
    )
    case(
        f"{_name}_dynamic",
        f"{_name}.out",
        _sized(getattr(torch, _name)),
        one(),
        ("f32",),
        dynamic=batch_dim,
        non_core=(f"{_name}.default",),
    )
case(
    "fill_scalar",
    "fill.Scalar_out",
    lambda x: torch.ops.aten.fill.Scalar(x, 3),
    one(),
    ALL,
    non_core=("fill.Scalar",),
)
case(
    "fill_scalar_float",
    "fill.Scalar_out",
    lambda x: torch.ops.aten.fill.Scalar(x, -2.5),
    one(),
    FLOAT,
    non_core=("fill.Scalar",),
)
case(
    "fill_tensor",
    "fill.Tensor_out",
    torch.ops.aten.fill.Tensor,
    lambda g, d: (g.t((3, 4), d), g.t((), d)),
    ALL,
    non_core=("fill.Tensor",),
)
# empty's values are whatever memory held: only dtypes and shapes are compared.
# Without dim order ops the bf16 method's casts are aten::_to_copy: that family is left out.
case(
    "empty",
    "empty.out",
    _sized(torch.empty),
    one(),
    ("bool",) + INT + ("f16", "f32", "f64"),
    compare="shape",
    skip_dim_order=True,
)
case(
    "empty_dim_order",
    "dim_order_ops::_empty_dim_order.out",
    _sized(torch.empty),
    one(),
    ALL,
    compare="shape",
)
case(
    "empty_channels_last",
    "dim_order_ops::_empty_dim_order.out",
    lambda x: torch.empty(*x.shape, dtype=x.dtype, memory_format=torch.channels_last),
    one((1, 2, 3, 4)),
    ("f32",),
    compare="shape",
)

# Random: the kernels draw from the runner's own generator (Note [Random kernels] in
# kernels/portable/util/random.h), so the test checks the distribution, not PyTorch's values.
for _name, _compare in (("rand", "uniform"), ("randn", "normal")):
    _fn = _sized(getattr(torch, _name))
    case(_name, f"{_name}.out", _fn, one((32, 64)), FLOAT, compare=_compare)
    case(
        f"{_name}_dynamic",
        f"{_name}.out",
        _fn,
        one((16, 64)),
        ("f32",),
        dynamic=batch_dim,
        compare=_compare,
    )
case(
    "native_dropout",
    "native_dropout.out",
    lambda x: torch.ops.aten.native_dropout(x, 0.25, True),
    one((32, 64), positive=True),
    FLOAT,
    compare="dropout",
)
case(
    "native_dropout_train_absent",
    "native_dropout.out",
    lambda x: torch.ops.aten.native_dropout(x, 0.5, None),
    one((32, 64), positive=True),
    ("f32",),
    compare="dropout",
)
case(
    "native_dropout_eval",
    "native_dropout.out",
    lambda x: torch.ops.aten.native_dropout(x, 0.5, False),
    one(),
    FLOAT,
)


# Complex: ComplexFloat only, the one complex dtype .npy and the runner both carry
# (ComplexDouble's npy name "<c16" is longer than the runner reads; numpy has no ComplexHalf).
def _complex(g: Gen, d: torch.dtype) -> tuple[torch.Tensor, ...]:
    return (torch.complex(g.t((3, 4), torch.float32), g.t((3, 4), torch.float32)),)


case(
    "conj_physical",
    "_conj_physical.out",
    torch.conj_physical,
    _complex,
    ("c64",),
    non_core=("_conj_physical.default",),
)
case("view_as_real_copy", "view_as_real_copy.out", torch.view_as_real_copy, _complex, ("c64",))
# === copies, views, indexing, scatter and layout operators (issue 11, coverage part 2) ===
import executorch.exir.passes._device_copy_ops_registry  # noqa: E402, F401  (registers et_copy)

_A = torch.ops.aten


def _other_dtype(x: torch.Tensor) -> torch.dtype:
    """A dtype `x` is not: `to` a dtype it already has is no copy at all."""
    return torch.float64 if x.dtype != torch.float64 else torch.int32


case(
    "to_copy",
    "_to_copy.out",
    lambda x: x.to(_other_dtype(x)),
    one(),
    ALL,
    skip_dim_order=True,
)
case(
    "to_copy_to_bool",
    "_to_copy.out",
    lambda x: x.to(torch.bool),
    one(),
    REAL,
    skip_dim_order=True,
)
case("clone", "clone.out", lambda x: x.clone(), one((2, 3, 4)), ALL, skip_dim_order=True)
case(
    "clone_dynamic",
    "clone.out",
    lambda x: x.clone(),
    one(),
    ("f32",),
    skip_dim_order=True,
    dynamic=batch_dim,
)
case("copy", "copy.out", lambda x, y: _A.copy.default(x, y), two(), ALL)
case(
    "copy_broadcast_convert",
    "copy.out",
    lambda x, y: _A.copy.default(x, y.to(torch.int32) + 1),
    two((2, 3, 4), (4,)),
    ("f32", "i64"),
)
case("copy_inplace", ("copy_", "copy.out"), lambda x, y: x.copy_(y), two(), ALL)
case("detach_copy", "detach_copy.out", lambda x: _A.detach_copy.default(x), one(), ALL)
case("diagonal_copy", "diagonal_copy.out", torch.diagonal, one((3, 4)), ALL)
case(
    "diagonal_copy_offset_dims",
    "diagonal_copy.out",
    lambda x: torch.diagonal(x, offset=-1, dim1=2, dim2=0),
    one((4, 2, 3)),
    ("f32", "i32"),
)
case(
    "as_strided_copy",
    "as_strided_copy.out",
    lambda x: torch.as_strided(x, (2, 3), (1, 2)),
    one(),
    ALL,
)
case(
    "as_strided_copy_offset",
    "as_strided_copy.out",
    lambda x: torch.as_strided(x, (3, 2), (4, 1), 1),
    one(),
    ("f32", "i64"),
)
case(
    "narrow_copy",
    "narrow_copy.out",
    lambda x: _A.narrow_copy.default(x, 1, 1, 2),
    one(),
    ALL,
)
case(
    "narrow_copy_negative_start",
    "narrow_copy.out",
    lambda x: _A.narrow_copy.default(x, 0, -2, 2),
    one(),
    ("f32",),
)
case(
    "squeeze_copy_dim",
    "squeeze_copy.dim_out",
    lambda x: _A.squeeze_copy.dim(x, 1),
    one((3, 1, 4)),
    ALL,
    non_core=("squeeze_copy.dim",),
)
case(
    "squeeze_copy_dim_not_1",
    "squeeze_copy.dim_out",
    lambda x: _A.squeeze_copy.dim(x, 0),
    one((3, 1, 4)),
    ("f32",),
    non_core=("squeeze_copy.dim",),
)
case("unbind_copy", "unbind_copy.int_out", lambda x: _A.unbind_copy.int(x, 1), one(), ALL)
case(
    "unbind_copy_default_dim",
    "unbind_copy.int_out",
    lambda x: _A.unbind_copy.int(x),
    one((2, 3, 2)),
    ("f32", "i32"),
)
case(
    "unfold_copy",
    "unfold_copy.out",
    lambda x: _A.unfold_copy.default(x, 1, 2, 1),
    one(),
    ALL,
    non_core=("unfold_copy.default",),
)
case(
    "unfold_copy_step",
    "unfold_copy.out",
    lambda x: _A.unfold_copy.default(x, 0, 2, 2),
    one((5, 2)),
    ("f32", "i64"),
    non_core=("unfold_copy.default",),
)
for _name in ("_h2d_copy", "_d2h_copy"):
    case(
        _name.strip("_"),
        f"et_copy::{_name}.out",
        lambda x, _n=_name: getattr(torch.ops.et_copy, _n).default(x),
        one(),
        ALL,
        non_core=(f"et_copy::{_name}.default",),
    )

case("nonzero", "nonzero.out", torch.nonzero, lambda g, d: (g.t((3, 4), d, -1, 1),), ALL)
case(
    "nonzero_3d",
    "nonzero.out",
    torch.nonzero,
    lambda g, d: (g.t((2, 3, 2), d, 0, 1),),
    ("f32",),
)
case(
    "masked_select",
    "masked_select.out",
    torch.masked_select,
    lambda g, d: (g.t((3, 4), d), g.t((3, 4), torch.bool)),
    ALL,
    non_core=("masked_select.default",),
)
case(
    "masked_select_broadcast",
    "masked_select.out",
    torch.masked_select,
    lambda g, d: (g.t((2, 3, 4), d), g.t((3, 1), torch.bool)),
    ("f32", "i64"),
    non_core=("masked_select.default",),
)
case(
    "masked_select_broadcast_self",
    "masked_select.out",
    torch.masked_select,
    lambda g, d: (g.t((3, 1), d), g.t((2, 1, 4), torch.bool)),
    ("f32",),
    non_core=("masked_select.default",),
)
case(
    "masked_scatter",
    "masked_scatter.out",
    lambda x, m, s: x.masked_scatter(m, s),
    lambda g, d: (g.t((3, 4), d), g.t((3, 4), torch.bool), g.t((14,), d)),
    ALL,
)
case(
    "masked_scatter_broadcast",
    "masked_scatter.out",
    lambda x, m, s: x.masked_scatter(m, s),
    lambda g, d: (g.t((3, 4), d), g.t((4,), torch.bool), g.t((2, 7), d)),
    ("f32",),
)


def _repeat_interleave_bounded(repeats: torch.Tensor) -> torch.Tensor:
    """repeat_interleave without output_size: its length is data-dependent, and the memory
    planner needs a bound, which torch._check gives (5 repeats of at most 3)."""
    out = torch.repeat_interleave(repeats)
    torch._check(out.shape[0] <= 15)
    return out


case(
    "repeat_interleave",
    "repeat_interleave.Tensor_out",
    _repeat_interleave_bounded,
    lambda g, d: (g.t((5,), d, 0, 3),),
    ("i32", "i64"),
    non_core=("repeat_interleave.Tensor",),
)
case(
    "repeat_interleave_output_size",
    "repeat_interleave.Tensor_out",
    lambda r: torch.repeat_interleave(r, output_size=7),
    lambda g, d: (torch.tensor([2, 0, 4, 1], dtype=d),),
    ("i64",),
    non_core=("repeat_interleave.Tensor",),
)

_SCATTER_INDEX = torch.tensor([[0, 2, 1, 0], [2, 0, 2, 1]])  # rows of dim 0 of a (3, 4) self
case(
    "scatter_src",
    "scatter.src_out",
    lambda x, s: torch.scatter(x, 0, _SCATTER_INDEX, s),
    two((3, 4), (2, 5)),
    ALL,
)
case(
    "scatter_src_dim1",
    "scatter.src_out",
    lambda x, s: torch.scatter(x, -1, torch.tensor([[3], [0], [1]]), s),
    two((3, 4), (3, 2)),
    ("f32", "i64"),
)
case(
    "scatter_value",
    "scatter.value_out",
    lambda x: torch.scatter(x, 0, _SCATTER_INDEX, 2),
    one(),
    REAL,
)
case(
    "scatter_value_bool",
    "scatter.value_out",
    lambda x: torch.scatter(x, 1, torch.tensor([[0, 1], [3, 3], [2, 0]]), True),
    one(),
    ("bool",),
)
case(
    "scatter_add",
    "scatter_add.out",
    lambda x, s: torch.scatter_add(x, 0, torch.tensor([[0, 2, 2, 0], [2, 2, 1, 0]]), s),
    two((3, 4), (2, 4)),
    ALL,
)
case(
    "select_scatter",
    "select_scatter.out",
    lambda x, s: torch.select_scatter(x, s, 0, 1),
    two((3, 4), (4,)),
    ALL,
    non_core=("select_scatter.default",),
)
case(
    "select_scatter_negative",
    "select_scatter.out",
    lambda x, s: torch.select_scatter(x, s, -1, -1),
    two((2, 3, 4), (2, 3)),
    ("f32", "i32"),
    non_core=("select_scatter.default",),
)
case(
    "slice_scatter",
    "slice_scatter.out",
    lambda x, s: torch.slice_scatter(x, s, 1, 0, 4, 2),
    two((3, 4), (3, 2)),
    ALL,
)
case(
    "slice_scatter_defaults",
    "slice_scatter.out",
    lambda x, s: torch.slice_scatter(x, s),
    two((3, 4), (3, 4)),
    ("f32",),
)
case(
    "slice_scatter_bounds",
    "slice_scatter.out",
    lambda x, s: torch.slice_scatter(x, s, 0, -2),
    two((3, 4), (2, 4)),
    ("f32", "i64"),
)

case("roll", "roll.out", lambda x: torch.roll(x, 1, 1), one(), ALL, non_core=("roll.default",))
case(
    "roll_dims",
    "roll.out",
    lambda x: torch.roll(x, (-1, 5), (0, 2)),
    one((3, 2, 4)),
    ("f32", "i64"),
    non_core=("roll.default",),
)
case(
    "roll_flat",
    "roll.out",
    lambda x: torch.roll(x, 5),
    one(),
    ("f32",),
    non_core=("roll.default",),
)
case(
    "pixel_shuffle",
    "pixel_shuffle.out",
    lambda x: F.pixel_shuffle(x, 2),
    one((1, 8, 2, 3)),
    ALL,
    non_core=("pixel_shuffle.default",),
)
case(
    "pixel_shuffle_3d",
    "pixel_shuffle.out",
    lambda x: F.pixel_shuffle(x, 3),
    one((9, 2, 2)),
    ("f32",),
    non_core=("pixel_shuffle.default",),
)
case(
    "pixel_unshuffle",
    "pixel_unshuffle.out",
    lambda x: F.pixel_unshuffle(x, 2),
    one((1, 2, 4, 6)),
    ALL,
    non_core=("pixel_unshuffle.default",),
)

_ROWS = torch.tensor([0, 2])
case(
    "index_put",
    "index_put.out",
    lambda x, v: torch.index_put(x, (_ROWS,), v),
    two((3, 4), (2, 4)),
    ALL,
)
case(
    "index_put_accumulate",
    "index_put.out",
    lambda x, v: torch.index_put(x, (torch.tensor([0, 2, 0]),), v, accumulate=True),
    two((3, 4), (3, 4)),
    REAL,
)
case(
    "index_put_broadcast_none",
    "index_put.out",
    lambda x, v: _A.index_put.default(x, [None, torch.tensor([[1], [2]])], v),
    two((2, 3, 4), (2, 1, 1)),  # values broadcast to the indexed shape (2, 2, 1, 4)
    ("f32", "i64"),
)
case(
    "index_put_mask",
    "index_put.out",
    lambda x, m: torch.index_put(x, (m,), torch.tensor(7, dtype=x.dtype)),
    lambda g, d: (g.t((3, 4), d), g.t((3, 4), torch.bool)),
    ("f32", "i32"),
)
case(
    "index_put_inplace",
    ("index_put.out", "copy_"),
    lambda x, v: x.index_put_((_ROWS,), v),
    two((3, 4), (2, 4)),
    ("f32",),
)
