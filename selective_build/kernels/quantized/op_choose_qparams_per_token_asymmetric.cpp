// quantized_decomposed::choose_qparams_per_token_asymmetric.out: a scale (Double) and zero
// point (Long) per token (each run along the last dim) of a Float tensor, for the int8 range
// [-128, 127] whatever `dtype` says (as ExecuTorch's kernel does), by the rule of qparams.h.
// The outs take the input's sizes with the last one 1.

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/qparams.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::choose_qparams_per_token_asymmetric.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// choose_qparams_per_token_asymmetric.out(Tensor input, ScalarType dtype, *, Tensor(a!) scale_out,
//                                         Tensor(b!) zero_point_out) -> (Tensor(a!), Tensor(b!))
void choose_qparams_per_token_asymmetric_out(rt::KernelContext& context, const rt::Tensor& input,
                                             rt::ScalarType /*dtype*/, rt::Tensor& scale_out,
                                             rt::Tensor& zero_point_out) {
  const rt::OpContext in(context, kOp);
  if (input.dim() == 0) {
    in.fail("input must have at least one dim (its last one holds the tokens' values)");
    return;
  }
  if (!Dtypes::check(context, kOp, input.dtype())) return;
  if (scale_out.dtype() != rt::ScalarType::Double) {
    in.fail("scale_out must be a Double tensor");
    return;
  }
  if (zero_point_out.dtype() != rt::ScalarType::Long) {
    in.fail("zero_point_out must be a Long tensor");
    return;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < input.dim(); ++d) sizes[d] = input.size(d);
  sizes[input.dim() - 1] = 1;
  if (!rt::resize_out(in, scale_out, sizes, input.dim()) ||
      !rt::resize_out(in, zero_point_out, sizes, input.dim())) {
    return;
  }
  const int last = input.dim() - 1;
  const int64_t width = input.size(last);
  const int64_t tokens = width == 0 ? scale_out.numel() : input.numel() / width;
  const float* data = input.data_as<float>();
  for (int64_t t = 0; t < tokens; ++t) {
    // Token t starts at row-major position t * width; its values lie input.stride(last) apart.
    float min = 0, max = 0;
    if (width > 0)
      float_range(data + input.offset_of(t * width), width, input.stride(last), &min, &max);
    const QParams qparams = choose_qparams_for(min, max, -128, 127);
    scale_out.data_as<double>()[scale_out.offset_of(t)] = qparams.scale;
    zero_point_out.data_as<int64_t>()[zero_point_out.offset_of(t)] = qparams.zero_point;
  }
}

}  // namespace quantized
