#pragma once

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/executor/instructions.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

namespace rt {

// Note [Channels last]
// An exported conv net keeps its activations NCHW: each channel's pixels adjacent. Its
// convolutions then either transpose (the pixels as a GEMM's rows, Note [Pixels as rows];
// a depthwise layer's channels as vector lanes, Note [Depthwise channels as lanes]) or
// shuffle (stride-2 taps) on every call. Kept channels last (dim order 0, 2, 3, 1: each
// pixel's channels adjacent), the same activations are what those kernels want as they
// are: a 1x1 convolution is a plain GEMM with the pixels as rows, a k x k one the same
// over each tap's pixels, a depthwise one 16 channels per vector at any stride, a
// residual add or an activation one pass over the same bytes.
// A tensor is channels last when its dim order says so (Tensor::is_channels_last): a
// program exported from a channels_last model carries such tensors, and the optimized
// kernels of such a chain take them, and any mix of them and contiguous ones, as they are.
// channels_last, once when the method loads (after Note [Fusion at load] and Note [Cats in
// place], before the calls are prepared: a convolution packs its weight for the layout it
// will see), gives that dim order to the activations between such calls.
Status channels_last(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                     BoxedList outputs, const Program& program, const KernelRegistry& registry);

}  // namespace rt
