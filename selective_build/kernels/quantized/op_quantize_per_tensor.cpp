// quantized_decomposed::quantize_per_tensor: one scale and zero point for the whole tensor,
// given as numbers (.out) or as one-element Double and Long tensors (.Tensor_out).

#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/quant_loops.h"
#include "kernels/quantized/quant_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::quantize_per_tensor.out";
constexpr const char* kTensorOp = "quantized_decomposed::quantize_per_tensor.Tensor_out";

// Each overload is compiled for the dtypes selected for it.
using ScalarArgs = kernels::InOutDispatch<&kOp>;
using TensorArgs = kernels::InOutDispatch<&kTensorOp>;

template <typename D>
void quantize(const rt::OpContext& in, const rt::Tensor& input, double scale, int64_t zero_point,
              int64_t quant_min, int64_t quant_max, ScalarType dtype, rt::Tensor& out) {
  if (out.dtype() != dtype) {
    in.fail("out must have the dtype given by 'dtype'");
    return;
  }
  if (!prepare_elementwise_out(in, input, out)) return;
  D::Out::run(in.context(), in.op(), out.dtype(), [&](auto out_tag) {
    using Q = typename decltype(out_tag)::type;
    if (!check_quant_range(in, out.dtype(), quant_min, quant_max)) return;
    D::In::run(in.context(), in.op(), input.dtype(), [&](auto in_tag) {
      using T = typename decltype(in_tag)::type;
      const float inv_scale = 1.0f / static_cast<float>(scale);
      const int32_t zp = static_cast<int32_t>(zero_point);
      const T* from = input.data_as<T>();
      Q* to = out.data_as<Q>();
      if constexpr (std::is_same<T, float>::value) {
        quantize_floats<Q>(from, input.numel(), to, inv_scale, zp, quant_min, quant_max);
      } else {
        for (int64_t i = 0; i < input.numel(); ++i) {
          to[i] = quantize_value<Q>(from[i], inv_scale, zp, quant_min, quant_max);
        }
      }
    });
  });
}

}  // namespace

// quantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, int quant_max,
//                         ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& quantize_per_tensor_out(rt::KernelContext& context, const rt::Tensor& input,
                                    double scale, int64_t zero_point, int64_t quant_min,
                                    int64_t quant_max, rt::ScalarType dtype, rt::Tensor& out) {
  quantize<ScalarArgs>(rt::OpContext(context, kOp), input, scale, zero_point, quant_min, quant_max,
                       dtype, out);
  return out;
}

// quantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max,
//                                ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& quantize_per_tensor_tensor_out(rt::KernelContext& context, const rt::Tensor& input,
                                           const rt::Tensor& scale, const rt::Tensor& zero_point,
                                           int64_t quant_min, int64_t quant_max,
                                           rt::ScalarType dtype, rt::Tensor& out) {
  const rt::OpContext in(context, kTensorOp);
  double scale_value = 0;
  int64_t zero_point_value = 0;
  if (!single_double(in, scale, "scale must be a one-element Double tensor", &scale_value) ||
      !single_long(in, zero_point, "zero_point must be a one-element Long tensor",
                   &zero_point_value)) {
    return out;
  }
  quantize<TensorArgs>(in, input, scale_value, zero_point_value, quant_min, quant_max, dtype, out);
  return out;
}

}  // namespace quantized
