#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::expm1.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Integer and bool tensors are computed in Float (Note [Unary ops]).
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using Compute = rt::DtypeDispatch<(kernels::declared_dtypes(kOp) & rt::kFloatingDtypes).bits(),
                                  kSelected.bits()>;

struct Expm1 : UnaryStateless<Expm1> {
  // e^x - 1, accurate near 0, where e^x - 1 would cancel.
  template <typename M>
  static M apply(M x) {
    return std::expm1(x);
  }
};

}  // namespace

// expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& expm1_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Compute, Expm1>(context, kOp, self, out, true);
  return out;
}

}  // namespace portable
