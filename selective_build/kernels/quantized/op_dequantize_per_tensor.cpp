// quantized_decomposed::dequantize_per_tensor: (q - zero_point) * scale for the whole tensor,
// the parameters given as numbers (.out) or one-element Double and Long tensors
// (.Tensor_out). quant_min and quant_max only describe the input (ExecuTorch checks
// quant_min <= quant_max and nothing else about them).

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

constexpr const char* kOp = "quantized_decomposed::dequantize_per_tensor.out";
constexpr const char* kTensorOp = "quantized_decomposed::dequantize_per_tensor.Tensor_out";

// Each overload is compiled for the dtypes selected for it.
using ScalarArgs = kernels::InOutDispatch<&kOp>;
using TensorArgs = kernels::InOutDispatch<&kTensorOp>;

template <typename D>
void dequantize(const rt::OpContext& in, const rt::Tensor& input, double scale, int64_t zero_point,
                int64_t quant_min, int64_t quant_max, ScalarType dtype,
                rt::Optional<ScalarType> out_dtype, rt::Tensor& out) {
  if (input.dtype() != dtype) {
    in.fail("input must have the dtype given by 'dtype'");
    return;
  }
  if (out_dtype.has_value() && out.dtype() != out_dtype.value()) {
    in.fail("out must have the dtype given by 'out_dtype'");
    return;
  }
  if (quant_min > quant_max) {
    in.fail("quant_min is greater than quant_max");
    return;
  }
  if (!prepare_elementwise_out(in, input, out)) return;
  D::In::run(in.context(), in.op(), input.dtype(), [&](auto in_tag) {
    using Q = typename decltype(in_tag)::type;
    D::Out::run(in.context(), in.op(), out.dtype(), [&](auto out_tag) {
      using F = typename decltype(out_tag)::type;
      const float scale_value = static_cast<float>(scale);
      const Q* from = input.data_as<Q>();
      F* to = out.data_as<F>();
      if constexpr (std::is_same<F, float>::value) {
        dequantize_to_floats<Q>(from, input.numel(), to, zero_point, scale_value);
      } else {
        for (int64_t i = 0; i < input.numel(); ++i)
          to[i] = dequantize_value<F>(from[i], zero_point, scale_value);
      }
    });
  });
}

}  // namespace

// dequantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, int quant_max,
//                           ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& dequantize_per_tensor_out(rt::KernelContext& context, const rt::Tensor& input,
                                      double scale, int64_t zero_point, int64_t quant_min,
                                      int64_t quant_max, rt::ScalarType dtype,
                                      rt::Optional<rt::ScalarType> out_dtype, rt::Tensor& out) {
  dequantize<ScalarArgs>(rt::OpContext(context, kOp), input, scale, zero_point, quant_min,
                         quant_max, dtype, out_dtype, out);
  return out;
}

// dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max,
//                                  ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& dequantize_per_tensor_tensor_out(rt::KernelContext& context, const rt::Tensor& input,
                                             const rt::Tensor& scale, const rt::Tensor& zero_point,
                                             int64_t quant_min, int64_t quant_max,
                                             rt::ScalarType dtype,
                                             rt::Optional<rt::ScalarType> out_dtype,
                                             rt::Tensor& out) {
  const rt::OpContext in(context, kTensorOp);
  double scale_value = 0;
  int64_t zero_point_value = 0;
  if (!single_double(in, scale, "scale must be a one-element Double tensor", &scale_value) ||
      !single_long(in, zero_point, "zero_point must be a one-element Long tensor",
                   &zero_point_value)) {
    return out;
  }
  dequantize<TensorArgs>(in, input, scale_value, zero_point_value, quant_min, quant_max, dtype,
                         out_dtype, out);
  return out;
}

}  // namespace quantized
