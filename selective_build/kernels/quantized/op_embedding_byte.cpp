// quantized_decomposed::embedding_byte: rows of quantized weights (one Byte or Char value per element),
// dequantized by embedding.h. The .out overload writes the scales' dtype; .dtype_out the
// dtype it is given (out's, when it is None).

#include <cstdint>

#include "kernels/quantized/embedding.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::embedding_byte.out";
constexpr const char* kDtypeOp = "quantized_decomposed::embedding_byte.dtype_out";
constexpr int kBits = 8;
constexpr bool kIntIndices = false;  // Int indices beside Long

}  // namespace

// embedding_byte.out(Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min,
//                    int weight_quant_max, Tensor indices, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& embedding_byte_out(rt::KernelContext& context, const rt::Tensor& weight,
                               const rt::Tensor& weight_scales,
                               rt::Optional<rt::Tensor> weight_zero_points,
                               int64_t weight_quant_min, int64_t weight_quant_max,
                               const rt::Tensor& indices, rt::Tensor& out) {
  const EmbeddingCall call{weight,
                           weight_scales,
                           weight_zero_points.get(),
                           weight_quant_min,
                           weight_quant_max,
                           indices,
                           {},
                           true,
                           kIntIndices,
                           kBits};
  quantized_embedding<&kOp>(rt::OpContext(context, kOp), call, out);
  return out;
}

// embedding_byte.dtype_out(Tensor weight, Tensor weight_scales, Tensor? weight_zero_points,
//                          int weight_quant_min, int weight_quant_max, Tensor indices, *,
//                          ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& embedding_byte_dtype_out(rt::KernelContext& context, const rt::Tensor& weight,
                                     const rt::Tensor& weight_scales,
                                     rt::Optional<rt::Tensor> weight_zero_points,
                                     int64_t weight_quant_min, int64_t weight_quant_max,
                                     const rt::Tensor& indices, rt::Optional<rt::ScalarType> dtype,
                                     rt::Tensor& out) {
  const EmbeddingCall call{weight,
                           weight_scales,
                           weight_zero_points.get(),
                           weight_quant_min,
                           weight_quant_max,
                           indices,
                           dtype,
                           false,
                           kIntIndices,
                           kBits};
  quantized_embedding<&kDtypeOp>(rt::OpContext(context, kDtypeOp), call, out);
  return out;
}

}  // namespace quantized
