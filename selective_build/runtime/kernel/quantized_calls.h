#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel.h"

// The entries of Note [Quantized calls at load] (runtime/executor/quantize_calls.h): an
// int8 Linear or convolution computed as one call on the quantized activations
// (kernels/optimized/qgemm.h), and an int8 residual add.
// Declared weak, as the fused entries of Note [Fused epilogue]: a runner that does not link
// the optimized library's matrix product has null pointers, and nothing is rewritten.
namespace rt {

// What a quantized layer reads, from the chain of the exported program: its weight (a Char
// constant, zero point 0: a Linear's [cols][depth], a convolution's [out][in / groups][kh][kw])
// with one scale or one per output channel, its Float bias (or none), the input's
// quantization and the out's (its range narrowed by a relu or hardtanh, Note [Quantized
// calls at load]), and a convolution's geometry.
struct QuantizedLayer {
  const Tensor* weight;
  const float* weight_scales;  // `cols` of them when per_channel, else one
  bool per_channel;
  const Tensor* bias;  // Float [cols], or null
  double input_scale;
  int64_t input_zero_point;
  double out_scale;
  int64_t out_zero_point, out_min, out_max;
  bool convolution;
  int64_t stride[2], padding[2], dilation[2], groups;
};

namespace quantized_calls {
// What prepare returns begins with the bytes it took, for the runner's report.
struct Prepared {
  size_t bytes;
};
// At load: the weight packed and the requantization's constants, in memory of `arena`
// (`*bytes` of it); nullptr when the kernel does not compute this layer (then the program
// runs as exported) or when out of memory (`*bytes` is then nonzero).
const void* prepare(const QuantizedLayer& layer, Arena& arena, size_t* bytes) __attribute__((weak));
// The calls: [input (Char or Byte: a Linear's [rows][depth], a convolution's NCHW), out, out],
// what prepare made in KernelContext::prepared(). (Only values of the method in the list:
// the other load-time passes index their tables by them.)
void linear(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
void convolution(KernelContext& context, Span<EValue* const> args) __attribute__((weak));

// The int8 residual add of Note [Quantized calls at load]: per element, as the exported
// dequantize, dequantize, add, quantize compute it. Filled in at load by the runtime.
struct Add {
  Prepared prepared;
  float a_scale, b_scale;  // float(scale) of each dequantize
  int64_t a_zero, b_zero;
  float inv_scale;  // 1.0f / float(scale) of the quantize
  int32_t zero_point;
  int64_t quant_min, quant_max;
};
// [a, b, out, out] (all Char or all Byte, of one shape), the Add in KernelContext::prepared().
// These four: the quantized library's loops at the optimized library's width
// (kernels/quantized/add_call.h, Note [Wide quantized loops]).
void add(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
// [a, copy, copy]: a's bytes into copy, a's dtype and shape in the memory of a's dequantize's
// out, where an operand the add reads is written over before it (Note [Quantized calls at load]).
void keep(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
// A quantize_per_tensor.out of Float values and a dequantize_per_tensor.out into Float
// values, the exporter's arguments as they are (no plan).
void quantize(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
void dequantize(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
}  // namespace quantized_calls

}  // namespace rt
