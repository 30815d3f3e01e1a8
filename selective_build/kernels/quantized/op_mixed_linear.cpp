// quantized_decomposed::mixed_linear.out: out (m, p) = input (m, n) x weight (p, n)^T, each
// weight row scaled by weight_scales (p) or per group of its columns (p, G: groups of
// ceil(n / G) columns, the last one shorter), out of Float, Half or Double (`dtype`, when
// given, must be Float or Half and the out's), as ExecuTorch's kernel computes it.

#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/quantized/mixed_matmul.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace quantized {
namespace {

constexpr const char* kOp = "quantized_decomposed::mixed_linear.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using InDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using OutDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp, "out").bits(), kSelected.bits()>;

}  // namespace

// mixed_linear.out(Tensor input, Tensor weight, Tensor weight_scales, Tensor? weight_zero_points,
//                  ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mixed_linear_out(rt::KernelContext& context, const rt::Tensor& input,
                             const rt::Tensor& weight, const rt::Tensor& weight_scales,
                             rt::Optional<rt::Tensor> weight_zero_points,
                             rt::Optional<rt::ScalarType> dtype, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!check_mixed_args(in, input, weight, weight_scales, weight_zero_points.get())) return out;
  const int64_t n = input.size(1), p = weight.size(0);
  if (weight.size(1) != n) {
    in.fail("input.size(1) must equal weight.size(1)");
    return out;
  }
  if ((weight_scales.dim() != 1 && weight_scales.dim() != 2) || weight_scales.size(0) != p) {
    in.fail("weight_scales must be 1-D or 2-D with weight.size(0) rows");
    return out;
  }
  const int64_t groups = weight_scales.dim() == 2 ? weight_scales.size(1) : 1;
  if (groups == 0 && n > 0) {
    in.fail("weight_scales must have at least one group");
    return out;
  }
  if (dtype.has_value() &&
      (out.dtype() != dtype.value() ||
       (dtype.value() != rt::ScalarType::Float && dtype.value() != rt::ScalarType::Half))) {
    in.fail("dtype must be Float or Half, the out's");
    return out;
  }
  const int32_t sizes[2] = {input.size(0), weight.size(0)};
  if (!rt::resize_out(in, out, sizes, 2)) return out;
  const int64_t group_size = groups == 0 ? 1 : (n + groups - 1) / groups;
  InDtypes::run(context, kOp, input.dtype(), [&](auto in_tag) {
    using T = typename decltype(in_tag)::type;
    OutDtypes::run(context, kOp, out.dtype(), [&](auto out_tag) {
      using F = typename decltype(out_tag)::type;
      using Acc = decltype(F() + 0.0f);  // double for a Double out, float otherwise
      const T* scales = weight_scales.data_as<T>();
      for (int64_t i = 0; i < sizes[0]; ++i) {
        for (int64_t j = 0; j < p; ++j) {
          Acc sum = 0;
          for (int64_t k = 0; k < n; k += group_size) {
            Acc partial = 0;
            for (int64_t k2 = k; k2 < n && k2 < k + group_size; ++k2) {
              partial += static_cast<float>(element<T>(input, i, k2)) *
                         static_cast<float>(element<int8_t>(weight, j, k2));
            }
            sum += partial * static_cast<float>(scales[j * groups + k / group_size]);
          }
          out.data_as<F>()[i * out.stride(0) + j * out.stride(1)] = static_cast<F>(sum);
        }
      }
    });
  });
  return out;
}

}  // namespace quantized
