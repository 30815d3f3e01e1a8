#pragma once

// The calls of Note [Quantized calls at load] (runtime/executor/quantize_calls.h) that are
// the quantized library's own loops, run at the optimized library's vector width (Note [Wide
// quantized loops], quant_loops.h): the int8 residual add, out = quantize(dequantize(a) +
// dequantize(b)) in one pass, a block of values at a time through two small float buffers
// on the stack (no float tensor), each step the quantize and dequantize kernels' loops and
// the float add's a + b, so the bits of the three calls it replaces; and a quantize of Float
// values or a dequantize into Float values left in the program (the input's quantize, a
// pool's float island). Defined weak here, included by the optimized library's quantized
// layers (kernels/optimized/quantized_calls.h), so compiled for its instruction set: every
// runner with the rewrite links them; one without refers to none, and the linker drops them
// (--gc-sections).

#include <cstdint>
#include <cstring>

#include "kernels/quantized/quant_loops.h"
#include "kernels/quantized/quant_util.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/quantized_calls.h"

namespace quantized {

template <typename Q>
void add_blocks(const rt::quantized_calls::Add& plan, const Q* a, const Q* b, Q* out, int64_t n) {
  constexpr int64_t kBlock = 256;
  typedef float Floats __attribute__((vector_size(4 * kWideLanes)));
  alignas(64) float x[kBlock];
  alignas(64) float y[kBlock];
  // Block by block, each read in full before its out is written: out may be a or b itself
  // (the planner gives it their memory once their dequantize ran; the rewrite checks that it
  // overlaps neither otherwise).
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = n - i < kBlock ? n - i : kBlock;
    dequantize_to_floats<Q, kWideLanes>(a + i, m, x, plan.a_zero, plan.a_scale);
    dequantize_to_floats<Q, kWideLanes>(b + i, m, y, plan.b_zero, plan.b_scale);
    int64_t k = 0;
    for (; k + kWideLanes <= m; k += kWideLanes) {
      Floats u, v;
      std::memcpy(&u, x + k, sizeof u);
      std::memcpy(&v, y + k, sizeof v);
      u += v;
      std::memcpy(x + k, &u, sizeof u);
    }
    for (; k < m; ++k) x[k] += y[k];
    quantize_floats<Q, kWideLanes>(x, m, out + i, plan.inv_scale, plan.zero_point, plan.quant_min,
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

// quantize_per_tensor.out's [input, scale, zero_point, quant_min, quant_max, dtype, out, out],
// input Float, out Char or Byte of `dtype` in a range it holds (checked at load): the
// quantize kernel's computation.
__attribute__((weak)) void rt::quantized_calls::quantize(rt::KernelContext& context,
                                                         rt::Span<rt::EValue* const> args) {
  const rt::OpContext in(context, "quantized_decomposed::quantize_per_tensor.out");
  const rt::Tensor& input = args[0]->to_tensor();
  rt::Tensor& out = args[7]->to_tensor();
  if (input.dtype() != rt::ScalarType::Float ||
      (out.dtype() != rt::ScalarType::Char && out.dtype() != rt::ScalarType::Byte))
    return in.fail("input must be Float and out Char or Byte");
  if (!quantized::prepare_elementwise_out(in, input, out)) return;
  const float inv_scale = 1.0f / static_cast<float>(args[1]->to_double());
  const int32_t zero_point = static_cast<int32_t>(args[2]->to_int());
  const int64_t low = args[3]->to_int(), high = args[4]->to_int();
  if (out.dtype() == rt::ScalarType::Char) {
    quantized::quantize_floats<int8_t, quantized::kWideLanes>(input.data_as<const float>(),
                                                              input.numel(), out.data_as<int8_t>(),
                                                              inv_scale, zero_point, low, high);
  } else {
    quantized::quantize_floats<uint8_t, quantized::kWideLanes>(
        input.data_as<const float>(), input.numel(), out.data_as<uint8_t>(), inv_scale, zero_point,
        low, high);
  }
}

// dequantize_per_tensor.out's [input, scale, zero_point, quant_min, quant_max, dtype,
// out_dtype, out, out], input Char or Byte of `dtype`, out Float (checked at load): the
// dequantize kernel's computation.
__attribute__((weak)) void rt::quantized_calls::dequantize(rt::KernelContext& context,
                                                           rt::Span<rt::EValue* const> args) {
  const rt::OpContext in(context, "quantized_decomposed::dequantize_per_tensor.out");
  const rt::Tensor& input = args[0]->to_tensor();
  rt::Tensor& out = args[8]->to_tensor();
  if ((input.dtype() != rt::ScalarType::Char && input.dtype() != rt::ScalarType::Byte) ||
      out.dtype() != rt::ScalarType::Float)
    return in.fail("input must be Char or Byte and out Float");
  if (!quantized::prepare_elementwise_out(in, input, out)) return;
  const float scale = static_cast<float>(args[1]->to_double());
  const int64_t zero_point = args[2]->to_int();
  if (input.dtype() == rt::ScalarType::Char) {
    quantized::dequantize_to_floats<int8_t, quantized::kWideLanes>(
        input.data_as<const int8_t>(), input.numel(), out.data_as<float>(), zero_point, scale);
  } else {
    quantized::dequantize_to_floats<uint8_t, quantized::kWideLanes>(
        input.data_as<const uint8_t>(), input.numel(), out.data_as<float>(), zero_point, scale);
  }
}
