#pragma once

// The int8 residual add of Note [Quantized calls at load] (runtime/executor/quantize_calls.h):
// out = quantize(dequantize(a) + dequantize(b)) in one pass, a block of values at a time
// through two small float buffers on the stack (no float tensor), each step the quantize and
// dequantize kernels' own loops (quant_loops.h) and the float add's a + b: the bits of the
// three calls it replaces. Defined weak here, included by the quantize kernel's source (which
// every runner with the rewrite links); a runner without the rewrite refers to none, and the
// linker drops it (--gc-sections).

#include <cstdint>
#include <cstring>

#include "kernels/quantized/quant_loops.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/quantized_calls.h"

namespace quantized {

template <typename Q>
void add_blocks(const rt::quantized_calls::Add& plan, const Q* a, const Q* b, Q* out, int64_t n) {
  constexpr int64_t kBlock = 256;
  float x[kBlock], y[kBlock];
  // Block by block, each read in full before its out is written: out may be a or b itself
  // (the planner gives it their memory once their dequantize ran; the rewrite checks that it
  // overlaps neither otherwise).
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = n - i < kBlock ? n - i : kBlock;
    dequantize_to_floats<Q>(a + i, m, x, plan.a_zero, plan.a_scale);
    dequantize_to_floats<Q>(b + i, m, y, plan.b_zero, plan.b_scale);
    for (int64_t k = 0; k < m; ++k) x[k] += y[k];
    quantize_floats<Q>(x, m, out + i, plan.inv_scale, plan.zero_point, plan.quant_min,
                       plan.quant_max);
  }
}

}  // namespace quantized

// [a, copy, copy]: a's bytes into copy (Note [Quantized calls at load]: an operand of the add
// kept from its dequantize to the add).
__attribute__((weak)) void rt::quantized_calls::keep(rt::KernelContext& context,
                                                     rt::Span<rt::EValue* const> args) {
  const rt::OpContext in(context, "quantized add's operand kept");
  const rt::Tensor& a = args[0]->to_tensor();
  rt::Tensor& copy = args[2]->to_tensor();
  if (!rt::resize_out(in, copy, a.sizes().data(), a.dim())) return;
  std::memcpy(copy.data(), a.data(), a.nbytes());
}

__attribute__((weak)) void rt::quantized_calls::add(rt::KernelContext& context,
                                                    rt::Span<rt::EValue* const> args) {
  const rt::OpContext in(context, "quantized add (dequantize both, add, quantize)");
  const auto* plan = static_cast<const rt::quantized_calls::Add*>(context.prepared());
  const rt::Tensor& a = args[0]->to_tensor();
  const rt::Tensor& b = args[1]->to_tensor();
  rt::Tensor& out = args[3]->to_tensor();
  if (plan == nullptr || a.dtype() != b.dtype() || a.dtype() != out.dtype() ||
      (a.dtype() != rt::ScalarType::Char && a.dtype() != rt::ScalarType::Byte))
    return in.fail("a, b and out must all be Char or all be Byte");
  if (a.dim() != b.dim() || !a.is_contiguous() || !b.is_contiguous() || !out.is_contiguous())
    return in.fail("a and b must be contiguous tensors of one shape");
  for (int d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d)) return in.fail("a and b must be contiguous tensors of one shape");
  }
  if (!rt::resize_out(in, out, a.sizes().data(), a.dim())) return;
  if (a.dtype() == rt::ScalarType::Char) {
    quantized::add_blocks(*plan, a.data_as<const int8_t>(), b.data_as<const int8_t>(),
                          out.data_as<int8_t>(), a.numel());
  } else {
    quantized::add_blocks(*plan, a.data_as<const uint8_t>(), b.data_as<const uint8_t>(),
                          out.data_as<uint8_t>(), a.numel());
  }
}
