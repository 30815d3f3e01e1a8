// quantized_decomposed::embedding_4bit: rows of quantized weights (two 4-bit values per byte),
// dequantized by embedding.h. The .out overload writes the scales' dtype; .dtype_out the
// dtype it is given (out's, when it is None).

#include <cstdint>

#include "kernels/quantized/embedding.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::embedding_4bit.out";
constexpr const char* kDtypeOp = "quantized_decomposed::embedding_4bit.dtype_out";
constexpr int kBits = 4;
constexpr bool kIntIndices = true;  // Int indices beside Long

}  // namespace

// embedding_4bit.out(Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min,
//                    int weight_quant_max, Tensor indices, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& embedding_4bit_out(rt::KernelContext& context, const rt::Tensor& weight,
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

// embedding_4bit.dtype_out(Tensor weight, Tensor weight_scales, Tensor? weight_zero_points,
//                          int weight_quant_min, int weight_quant_max, Tensor indices,
//                          ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& embedding_4bit_dtype_out(rt::KernelContext& context, const rt::Tensor& weight,
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
