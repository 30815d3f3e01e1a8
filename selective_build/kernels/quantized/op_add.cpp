// quantized_decomposed::add.out: two quantized tensors of one shape and dtype, dequantized,
// added in float and quantized again with the out's parameters (ExecuTorch's QuantFusionPass
// makes it from dequantize -> add -> quantize on uint8). Facts from ExecuTorch 1.5.1's
// kernels/quantized/cpu/op_add.cpp: every quant_min/quant_max pair must lie in [0, 255] and
// be ordered, whatever the dtype; each input is dequantized as (q - zero_point) * scale in
// double and narrowed to float; the sum is quantized by Note [Quantized rounding].

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/quant_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::add.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

bool in_uint8_range(int64_t quant_min, int64_t quant_max) {
  return quant_min >= 0 && quant_max <= 255 && quant_min <= quant_max;
}

template <typename Q>
float dequantize_to_float(Q q, int64_t zero_point, float scale) {
  return static_cast<float>(static_cast<double>(static_cast<int64_t>(q) - zero_point) *
                            static_cast<double>(scale));
}

}  // namespace

// add.out(Tensor a, float a_scale, int a_zero_point, int a_quant_min, int a_quant_max, Tensor b, float b_scale,
//         int b_zero_point, int b_quant_min, int b_quant_max, float out_scale, int out_zero_point,
//         int out_quant_min, int out_quant_max, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& add_out(rt::KernelContext& context, const rt::Tensor& a, double a_scale,
                    int64_t a_zero_point, int64_t a_quant_min, int64_t a_quant_max,
                    const rt::Tensor& b, double b_scale, int64_t b_zero_point, int64_t b_quant_min,
                    int64_t b_quant_max, double out_scale, int64_t out_zero_point,
                    int64_t out_quant_min, int64_t out_quant_max, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!in_uint8_range(a_quant_min, a_quant_max) || !in_uint8_range(b_quant_min, b_quant_max) ||
      !in_uint8_range(out_quant_min, out_quant_max)) {
    in.fail("every quant_min and quant_max must lie in [0, 255], quant_min <= quant_max");
    return out;
  }
  bool same = a.dtype() == b.dtype() && a.dtype() == out.dtype() && a.dim() == b.dim();
  for (int d = 0; same && d < a.dim(); ++d)
    same = a.size(d) == b.size(d) && a.dim_order()[d] == b.dim_order()[d];
  if (!same) {
    in.fail("a, b and out must have the same dtype, and a and b the same shape and dim order");
    return out;
  }
  if (!prepare_elementwise_out(in, a, out)) return out;
  Dtypes::run(context, kOp, a.dtype(), [&](auto tag) {
    using Q = typename decltype(tag)::type;
    const Q* x = a.data_as<Q>();
    const Q* y = b.data_as<Q>();
    Q* to = out.data_as<Q>();
    const float sa = static_cast<float>(a_scale), sb = static_cast<float>(b_scale);
    const int32_t za = static_cast<int32_t>(a_zero_point), zb = static_cast<int32_t>(b_zero_point);
    const float inv_scale = 1.0f / static_cast<float>(out_scale);
    const int32_t zero_point = static_cast<int32_t>(out_zero_point);
    for (int64_t i = 0; i < a.numel(); ++i) {
      const float sum = dequantize_to_float(x[i], za, sa) + dequantize_to_float(y[i], zb, sb);
      to[i] = quantize_value<Q>(sum, inv_scale, zero_point, out_quant_min, out_quant_max);
    }
  });
  return out;
}

}  // namespace quantized
