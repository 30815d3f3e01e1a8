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

// Note [Quantized calls at load]
// A PT2E-quantized program (XNNPACKQuantizer, not delegated) computes each Linear in float
// between the exporter's quantize and dequantize calls:
//   xf = dequantize_per_tensor(x)            x Char or Byte, a Double scale, an Int zero point
//   wf = dequantize_per_channel(w) or dequantize_per_tensor(w)   w a Char constant, zero point 0
//   wt = permute_copy(wf, [1, 0])
//   y  = addmm(bias, xf, wt) (beta = alpha = 1, a Float constant bias) or mm(xf, wt)
//   [y = relu(y)]
//   q  = quantize_per_tensor(y)              a Double scale, an Int zero point, Char or Byte
//   [q = quantize_per_tensor(relu or hardtanh(dequantize_per_tensor(q)))]   all with q's
//                                            scale, zero point, range and dtype
// (a convolution: convolution(xf, wf, bias, ...) in place of the permute and the product, its
// weight 4-D, not transposed, any stride, padding, dilation and groups). A relu before the
// quantize is a clamp at the zero point; an activation quantized on its own after it is a
// clamp of q's integers at its bounds quantized (dequantize then quantize with the same
// parameters gives q back: the float error of the round trip is far below half a step).
// Both narrow the out's range, exactly.
// quantize_calls rewrites, once when the method loads (before the other load-time passes,
// which then never see the float chain), each such chain into one call of the optimized
// library's quantized Linear (runtime/kernel/quantized_calls.h): q = requantize(x @ w^T) on
// the int8 GEMM (Note [int8 GEMM], kernels/optimized/qgemm.h), the weight packed now, the
// float calls no-ops (Instruction::Kind::Free). Its result is the chain's up to Note
// [Requantization]'s one step where the float chain's sum rounds the other way.
// A chain is rewritten only when all of these hold (otherwise the program runs as exported):
//  - the method has no JumpFalse: every instruction runs once, in order;
//  - each call is the operator above with the exporter's argument layout (out listed again
//    as the return slot), each intermediate Float value is read only by the next call of the
//    chain (its producer's out and return slot and that one read: no second user, no
//    method input or output), and is written by its producer alone;
//  - the scales and zero points are scalars (not the Tensor overloads), and the weight, its
//    scales (Float, one per output feature), its zero points (all 0) and the bias are tensors
//    held in the program file that nothing writes;
//  - an activation after the quantize is the next call that runs, and so are its
//    dequantize before and quantize after;
//  - between x's dequantize and the quantize, only the chain's own calls (and no-ops) run:
//    so nothing else writes x before the rewritten call reads it at the quantize's place;
//  - the kernel accepts it (quantized_calls::prepare: 8-bit outs, depth below 2^16, a positive scale).
// The rewritten call packs all of x before it writes q: the planner may give the two the
// same memory, as x was dead after its dequantize.
// The memory it takes (each weight packed, its column sums, multipliers and bias) is
// reported in the runner's "quantized calls at load" line.
// A residual add, as PT2E writes one between two quantized tensors a and b,
//   q = quantize_per_tensor(add(dequantize_per_tensor(a), dequantize_per_tensor(b)))
// (alpha 1; a, b and q of one 8-bit dtype and one shape, static, contiguous; scalar
// parameters; each float value read by the next call alone), becomes one call of
// quantized_calls::add at the quantize's place: per value, the dequantizes', the add's and
// the quantize's own float operations in their order (the same bits), a block at a time
// with no float tensor. It reads a and b where the quantize ran, so neither may be written
// from its dequantize on (the planner gives an operand's memory to a later tensor once its
// dequantize ran, and the exporter places the dequantize of a block's input early): such an
// operand is kept by its dequantize, now a byte copy (quantized_calls::keep), in the memory
// of that dequantize's float out, which nothing else uses until the add; where that memory
// is written too, or q overlaps an operand other than exactly, the add runs as exported.
// The quantize of Float values and the dequantize into Float values that remain (the
// input's quantize, the float islands PT2E leaves around a pool or a head) then run the
// quantize and dequantize kernels' loops at the optimized library's vector width
// (quantized_calls::quantize and dequantize, Note [Wide quantized loops]): the same bits,
// the call's arguments as they are, so constant folding may still run it.
// The graph the rewrites read is Note [Call graph at load] (call_graph.h).
//
// Compiled in (RT_QUANT_CALLS, codegen/plan/ours.py) only where the quantized library's
// quantize and the optimized library's matrix product are both linked.
Status quantize_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                      BoxedList outputs, const Program& program, const KernelRegistry& registry,
                      Arena& arena);

// The calls quantize_calls rewrote and the memory their preparation took; apart, the
// quantize and dequantize calls it moved to the wide loops.
struct QuantizedStats {
  size_t calls;
  size_t bytes;
  size_t wide;
};
QuantizedStats quantized_stats(Span<Instruction> instructions);

}  // namespace rt
