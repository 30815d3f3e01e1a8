#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::leaky_relu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// x above 0, else x * negative_slope (NaN stays NaN).
struct LeakyRelu {
  rt::Scalar slope;

  template <typename M>
  struct Fn {
    M slope;
    M operator()(M x) const { return x > M(0) ? x : x * slope; }
  };
  template <typename M>
  Fn<M> bind() const {
    return Fn<M>{slope.to<M>()};
  }
};

}  // namespace

// leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& leaky_relu_out(rt::KernelContext& context, const rt::Tensor& self,
                           rt::Scalar negative_slope, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::Scalar slope = negative_slope;
  if (slope.is_bool()) {
    in.fail("negative_slope must be a number");
    return out;
  }
  unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), LeakyRelu{slope});
  return out;
}

}  // namespace portable
