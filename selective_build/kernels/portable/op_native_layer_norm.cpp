#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_layer_norm.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::native_layer_norm.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps, *,
//                       Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
void native_layer_norm_out(rt::KernelContext& context, const rt::Tensor& input,
                           rt::IntList normalized_shape, rt::Optional<rt::Tensor> weight,
                           rt::Optional<rt::Tensor> bias, double eps, rt::Tensor& out0,
                           rt::Tensor& out1, rt::Tensor& out2) {
  const rt::OpContext in(context, kOp);
  LayerNormCall c;
  if (!plan_native_layer_norm<Dtypes>(in, input, normalized_shape, weight, bias, eps, out0, out1,
                                      out2, &c)) {
    return;
  }
  Dtypes::run(context, kOp, c.input->dtype(),
              [&](auto tag) { layer_norm<typename decltype(tag)::type>(c); });
}

}  // namespace portable
