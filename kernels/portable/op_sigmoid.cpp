#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::sigmoid.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Integer and bool tensors are computed in Float (Note [Unary ops]).
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using Compute = rt::DtypeDispatch<(kernels::declared_dtypes(kOp) & rt::kFloatingDtypes).bits(),
                                  kSelected.bits()>;

struct Sigmoid : UnaryStateless<Sigmoid> {
  // 1 / (1 + e^-x), which tends to 0 and 1 without overflow trouble.
  template <typename M>
  static M apply(M x) {
    return M(1) / (M(1) + std::exp(-x));
  }
};

}  // namespace

// sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& sigmoid_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Compute, Sigmoid>(context, kOp, self, out, true);
  return out;
}

}  // namespace portable
