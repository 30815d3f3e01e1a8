#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_conv.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::convolution.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
//                 SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
rt::Tensor& convolution_out(rt::KernelContext& context, const rt::Tensor& input,
                            const rt::Tensor& weight, rt::Optional<rt::Tensor> bias_arg,
                            rt::IntList stride, rt::IntList padding, rt::IntList dilation,
                            bool transposed, rt::IntList output_padding, int64_t groups,
                            rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::Tensor* bias = bias_arg.get();
  if (!Dtypes::check(context, kOp, input.dtype())) return out;
  ConvCall c;
  if (!plan_convolution(in, input, weight, bias, stride, padding, dilation, transposed,
                        output_padding, groups, out, &c)) {
    return out;
  }
  const rt::ScalarType dtype = input.dtype();
  Dtypes::run(context, kOp, dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* bias_data = bias != nullptr ? bias->data_as<const T>() : nullptr;
    if (c.transposed) {
      transposed_convolution<T>(c, input.data_as<const T>(), weight.data_as<const T>(), bias_data,
                                out.data_as<T>());
    } else {
      convolution<T>(c, input.data_as<const T>(), weight.data_as<const T>(), bias_data,
                     out.data_as<T>());
    }
  });
  return out;
}

}  // namespace portable
