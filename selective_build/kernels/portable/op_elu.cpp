#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::elu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// scale * x above 0, else scale * alpha * (e^(input_scale * x) - 1).
struct Elu {
  rt::Scalar alpha, scale, input_scale;

  template <typename M>
  struct Fn {
    M negative, positive, input;
    M operator()(M x) const { return x > M(0) ? x * positive : std::expm1(x * input) * negative; }
  };
  template <typename M>
  Fn<M> bind() const {
    return Fn<M>{alpha.to<M>() * scale.to<M>(), scale.to<M>(), input_scale.to<M>()};
  }
};

}  // namespace

// elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& elu_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar alpha,
                    rt::Scalar scale, rt::Scalar input_scale, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const Elu elu{alpha, scale, input_scale};
  unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), elu);
  return out;
}

}  // namespace portable
