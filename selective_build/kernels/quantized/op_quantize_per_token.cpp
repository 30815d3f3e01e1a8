// quantized_decomposed::quantize_per_token: a scale (Double) and zero point (Long) per token,
// each run of values along the last dim (per_channel.h walks the positions).

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/per_channel.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::quantize_per_token.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using InDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using OutDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp, "out").bits(), kSelected.bits()>;

}  // namespace

// quantize_per_token.out(Tensor input, Tensor scales, Tensor zero_points, int quant_min, int quant_max,
//                        ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& quantize_per_token_out(rt::KernelContext& context, const rt::Tensor& input,
                                   const rt::Tensor& scales, const rt::Tensor& zero_points,
                                   int64_t quant_min, int64_t quant_max, rt::ScalarType dtype,
                                   rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  ChannelWalk tokens{};
  if (!tokens_of(in, input, &tokens)) return out;
  quantize_channels<InDtypes, OutDtypes>(in, input, scales, zero_points, tokens, quant_min,
                                         quant_max, dtype, out);
  return out;
}

}  // namespace quantized
