#pragma once

#include <cstddef>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/executor/instructions.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

namespace rt {

// Note [Fusion at load]
// An exported conv net is a chain of convolution -> batch norm -> activation calls, each a
// pass over memory. fuse_calls rewrites, once when the method loads (after Note [Constant
// folding at load], so weights prepared there count as constants), each such chain into
// one call of a fused entry (Note [Fused epilogue], runtime/kernel/epilogue.h):
//  - a batch norm right after a convolution is folded into the convolution's weight and
//    bias: w' = w * scale, b' = b * scale + shift per output channel, with scale and shift
//    computed as the batch norm kernel computes them (a new copy of the weight and bias:
//    the file's are never written);
//  - a relu, hardtanh, clamp, hardswish or sigmoid right after (the convolution or the
//    folded batch norm) becomes the fused call's epilogue, and so does SiLU as the exporter
//    writes it (sigmoid of the out, then mul of the out and that: the out read by both); so does one right after a matrix product
//    (mm, or a Linear's addmm: beta = alpha = 1, a row of bias);
//  - the fused call writes the chain's last out; the calls it replaced do nothing at run
//    time (Instruction::Kind::Free).
// A chain is rewritten only when all of these hold, in the spirit of constant folding:
//  - the chain of the method has no JumpFalse: every instruction runs once, in order;
//  - the calls are adjacent (nothing runs between them but no-ops), so no other call can
//    read or write a value between the original calls' runs;
//  - each intermediate out is used by exactly its producer (out and return slot) and the
//    next call of the chain, is no method input or output; a batch norm's two other outs
//    and its list of outs are used by nothing else;
//  - every out is a Float tensor written as the exporter writes a call (out listed again as
//    the return slot), and the fused entry accepts the call (Float; a convolution not
//    transposed);
//  - for a batch norm: the convolution's weight is a Float constant (held in
//    the program file or folded at load, written by no call and no caller) whose output
//    channels are its outermost dimension (dim order starts with 0), its bias absent
//    or such a constant, and the batch norm's parameters constants with one entry per
//    output channel.
// The chain's last out has planned memory that the exporter may share with an input of the
// first call (it is free once that call ran): writing it while the input is read would
// corrupt both. Such an out gets memory of its own instead (in all at most the
// bytes of the method's non-constant tensors, counted unplanned; past that the chain is
// left as it is).
// Who uses and writes each value is Note [Call graph at load] (call_graph.h).
// Every rewrite's memory (new weights and biases, outs moved) is counted in fused_bytes.
// The fused result equals the unfused one within float rounding (the batch norm fold
// reorders a product); activations are computed as their own kernels compute them.
//
// Compiled in (RT_FUSE_CALLS, with Note [Constant folding at load]'s RT_FOLD_CONSTANTS)
// only where a kernel with a fused entry (runtime/kernel/epilogue.h) is linked: elsewhere
// it would rewrite nothing, and its code would cost every runner of a Linear a page.
Status fuse_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                  BoxedList outputs, const Program& program, const KernelRegistry& registry,
                  Arena& arena);

// The fused calls of a method and the memory their rewrites took (each fused call keeps its
// share among its values: no member of Method, no byte in runners without fusion).
struct FusionStats {
  size_t chains;
  size_t bytes;
};
FusionStats fusion_stats(Span<Instruction> instructions);

}  // namespace rt
