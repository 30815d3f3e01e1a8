#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::leaky_relu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kFloatingDtypes.bits(), kSelected.bits()>;

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
void leaky_relu_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::Scalar slope = in.scalar(1, "negative_slope");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok()) return;
  if (slope.is_bool()) return in.fail("negative_slope must be a number");
  unary_map<Dtypes, Dtypes>(in, *self, *out, self->dtype(), LeakyRelu{slope});
}

}  // namespace portable
