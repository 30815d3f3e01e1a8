#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::logit.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
// Computed in out's dtype (its functions.yaml entry says which).
constexpr rt::DtypeSet kOutDtypes = kernels::declared_dtypes(kOp, "out");
using Compute = rt::DtypeDispatch<kOutDtypes.bits(), kSelected.bits()>;

// log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given.
struct Logit {
  rt::Optional<double> eps;

  template <typename M>
  struct Fn {
    M lo, hi;
    bool clamp;
    M operator()(M x) const {
      if (clamp) {
        if (x < lo) x = lo;
        if (x > hi) x = hi;
      }
      return std::log(x / (M(1) - x));
    }
  };
  template <typename M>
  Fn<M> bind() const {
    const M lo = static_cast<M>(eps.value_or(0.0));
    return Fn<M>{lo, M(1) - lo, eps.has_value()};
  }
};

}  // namespace

// logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& logit_out(rt::KernelContext& context, const rt::Tensor& self, rt::Optional<double> eps,
                      rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!kOutDtypes.contains(out.dtype())) {
    in.fail("out must be Float or Double");
    return out;
  }
  unary_map<Dtypes, Compute>(in, self, out, out.dtype(), Logit{eps});
  return out;
}

}  // namespace portable
