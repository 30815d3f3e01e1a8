#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::asinh.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Integer and bool tensors are computed in Float (Note [Unary ops]).
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using Compute = rt::DtypeDispatch<(kernels::declared_dtypes(kOp) & rt::kFloatingDtypes).bits(),
                                  kSelected.bits()>;

struct Asinh : UnaryStateless<Asinh> {
  // Defined everywhere.
  template <typename M>
  static M apply(M x) {
    return std::asinh(x);
  }
};

}  // namespace

// asinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& asinh_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Compute, Asinh>(context, kOp, self, out, true);
  return out;
}

}  // namespace portable
