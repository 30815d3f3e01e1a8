// quantized_decomposed::mixed_mm.out: out (m, p) = input (m, n) x (weight (n, p) scaled by
// weight_scales[k] along its rows), as ExecuTorch's kernel computes it: one scale per row k
// of the weight (weight_scales has weight.size(0) entries), out in the input's dtype.

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/mixed_matmul.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::mixed_mm.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// mixed_mm.out(Tensor input, Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, *,
//              Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mixed_mm_out(rt::KernelContext& context, const rt::Tensor& input,
                         const rt::Tensor& weight, const rt::Tensor& weight_scales,
                         rt::Optional<rt::Tensor> weight_zero_points, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!check_mixed_args(in, input, weight, weight_scales, weight_zero_points.get())) return out;
  if (input.size(1) != weight.size(0)) {
    in.fail("input.size(1) must equal weight.size(0)");
    return out;
  }
  if (weight_scales.dim() != 1 || weight_scales.size(0) != weight.size(0)) {
    in.fail("weight_scales must be 1-D with weight.size(0) entries");
    return out;
  }
  if (out.dtype() != input.dtype()) {
    in.fail("out must have the input's dtype");
    return out;
  }
  const int32_t sizes[2] = {input.size(0), weight.size(1)};
  if (!rt::resize_out(in, out, sizes, 2)) return out;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* scales = weight_scales.data_as<T>();
    for (int64_t i = 0; i < sizes[0]; ++i) {
      for (int64_t j = 0; j < sizes[1]; ++j) {
        float sum = 0;
        for (int64_t k = 0; k < input.size(1); ++k) {
          sum += static_cast<float>(element<T>(input, i, k)) *
                 static_cast<float>(element<int8_t>(weight, k, j)) * static_cast<float>(scales[k]);
        }
        out.data_as<T>()[i * out.stride(0) + j * out.stride(1)] = static_cast<T>(sum);
      }
    }
  });
  return out;
}

}  // namespace quantized
