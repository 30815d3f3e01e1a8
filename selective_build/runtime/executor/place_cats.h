#pragma once

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/executor/instructions.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

namespace rt {

// Note [Cats in place]
// Each of SqueezeNet's Fire modules ends in a cat of two convolutions' outs along the
// channels: a copy of every byte the two wrote, 2.7 % of the net's time. place_cats, once
// when the method loads (after Note [Fusion at load], whose fused calls then write the cat's
// inputs), points each input of such a cat at its own run of the cat's out, so its producer
// writes the cat's bytes itself and the cat does nothing at run time (Kind::Free). Only
// where nothing could tell the difference:
//  - the method has no JumpFalse: every instruction runs once, in order;
//  - the cat's out and its inputs are tensors of one dtype with static shapes and the
//    contiguous dim order, every dimension before the cat's of size 1 and every other equal
//    to the out's, the sizes along the cat's dimension summing to the out's: input k's
//    elements are then one run of the out's, right after input k - 1's;
//  - each input is the out of a kernel call that runs before the cat, written as the
//    exporter writes a call (out listed again as its return slot), and nothing else refers
//    to it (no other call, move, method input or output; the cat's list, used by the cat
//    alone, once);
//  - the cat's out is no method input, and nothing refers to it before the cat runs.
// The cat's out gets memory of its own: its planned memory may be shared with a tensor that
// is still live while the inputs are written (a producer's own input, free once the cat
// runs). That memory is bounded as Note [Fusion at load]'s own outs are, and it and each cat
// count in the runner's "calls fused at load". The producers write the values the cat would
// have copied, where it would have copied them: the same bits.
// A cat whose parts Note [Channels last] made channels last is not placed (its out is not
// contiguous): it copies them, a run per part and pixel.
// Who uses each value is Note [Call graph at load] (call_graph.h). Compiled in
// (RT_PLACE_CATS, with Note [Fusion at load]'s RT_FUSE_CALLS) only where a cat is linked.
Status place_cats(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                  BoxedList outputs, const Program& program, const KernelRegistry& registry,
                  Arena& arena);

// What a placed cat's instruction keeps as its function (never called: the instruction is
// Free), so fusion_stats can count it; its one argument holds the bytes it took.
void placed_cat(KernelContext& context, Span<EValue* const> args);

}  // namespace rt
