// quantized_decomposed::dequantize_per_channel: (q - zero_point[c]) * scale[c] along `axis`
// (per_channel.h walks the positions and says which parameter dtypes it takes).

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/per_channel.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::dequantize_per_channel.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using InDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using OutDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp, "out").bits(), kSelected.bits()>;

}  // namespace

// dequantize_per_channel.out(Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min,
//                            int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None,
//                            Tensor(a!) out) -> Tensor(a!)
rt::Tensor& dequantize_per_channel_out(rt::KernelContext& context, const rt::Tensor& input,
                                       const rt::Tensor& scales,
                                       rt::Optional<rt::Tensor> zero_points, int64_t axis,
                                       int64_t quant_min, int64_t quant_max, rt::ScalarType dtype,
                                       rt::Optional<rt::ScalarType> out_dtype, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!normalize_axis(in, input, &axis)) return out;
  dequantize_channels<InDtypes, OutDtypes>(in, input, scales, zero_points.get(),
                                           channel_walk(input, axis), quant_min, quant_max, dtype,
                                           out_dtype, out);
  return out;
}

}  // namespace quantized
