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
// program exported from a channels_last model carries such tensors, and our kernels of a
// conv net's calls take them, and any mix of them and contiguous ones.
// channels_last, once when the method loads, gives that dim order to the activations
// between such calls, after Note [Fusion at load] (its fused calls are then what reads and
// writes them) and before Note [Cats in place] (which places only contiguous tensors: a cat
// of channels-last parts copies a run per part and pixel, which cost SqueezeNet less than
// the transposes into the NCHW parts of a placed cat) and the calls' preparation (a
// convolution packs its weight for the layout it will see).
// Only the dim order changes: the same bytes of planned memory, read the other way.
// A tensor changes when all of these hold:
//  - it is an activation: a 4-D tensor with more than one pixel and one channel, static and
//    contiguous, written by a call at run time, no method input or output, no constant (a
//    [N, C, 1, 1] one is the same bytes either way and is left);
//  - every instruction that refers to it takes it channels last: a convolution (not
//    transposed) as its input or out (a depthwise one's both or neither: its channels-last
//    kernel takes no mix); a call that computes pixel by pixel (relu, hardtanh,
//    clamp, sigmoid, hardswish, add, sub, mul, div, max pool, average pool, cat) when every
//    tensor of the call with pixels changes too, a list's items among them (a cat's parts,
//    a max pool's outs): the sets are joined, one stays, all stay; a reduction over the
//    pixels (adaptive average pool, mean) as its input; no move, no other operator;
//  - its set reaches a convolution: a chain of pools and adds alone stays as exported.
// The kernels compute the same values in either layout, within float rounding (a k x k
// convolution over channels-last windows sums its products in another order).
// Compiled in (RT_CHANNELS_LAST, with Note [Fusion at load]) only where the optimized
// convolution is linked and every kernel is one of our libraries': the pass decides by
// operator name what a kernel takes, which only our kernels promise.
Status channels_last(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                     BoxedList outputs, const Program& program, const KernelRegistry& registry,
                     Arena& arena);

}  // namespace rt
