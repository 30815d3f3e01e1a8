// quantized_decomposed::choose_qparams.Tensor_out: one asymmetric scale (Double) and zero
// point (Long) for a whole Float tensor, by ExecuTorch's rule (qparams.h). ExecuTorch
// ignores `eps` and `dtype`; so do we.

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/qparams.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::choose_qparams.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// choose_qparams.Tensor_out(Tensor input, int quant_min, int quant_max, float eps, ScalarType dtype, *,
//                           Tensor(a!) scale_out, Tensor(b!) zero_point_out) -> (Tensor(a!), Tensor(b!))
void choose_qparams_tensor_out(rt::KernelContext& context, const rt::Tensor& input,
                               int64_t quant_min, int64_t quant_max, double /*eps*/,
                               rt::ScalarType /*dtype*/, rt::Tensor& scale_out,
                               rt::Tensor& zero_point_out) {
  const rt::OpContext in(context, kOp);
  if (quant_min >= quant_max) {
    in.fail("quant_min must be less than quant_max");
    return;
  }
  if (quant_min < INT32_MIN || quant_max > INT32_MAX) {
    in.fail("quant_min and quant_max must fit in 32 bits");
    return;
  }
  if (!Dtypes::check(context, kOp, input.dtype())) return;
  if (scale_out.dtype() != rt::ScalarType::Double || scale_out.numel() != 1) {
    in.fail("scale_out must be a one-element Double tensor");
    return;
  }
  if (zero_point_out.dtype() != rt::ScalarType::Long || zero_point_out.numel() != 1) {
    in.fail("zero_point_out must be a one-element Long tensor");
    return;
  }
  // The range ignores the order of the values, so memory order serves any dim order.
  float min = 0, max = 0;
  float_range(input.data_as<float>(), input.numel(), 1, &min, &max);
  const QParams qparams = choose_qparams_for(min, max, quant_min, quant_max);
  *scale_out.data_as<double>() = qparams.scale;
  *zero_point_out.data_as<int64_t>() = qparams.zero_point;
}

}  // namespace quantized
