#include <cmath>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::ceil.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Integers are already whole (torch copies them); bool is not supported.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct Ceil : UnaryStateless<Ceil> {
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_integral<M>::value) {
      return x;
    } else {
      return std::ceil(x);
    }
  }
};

}  // namespace

// ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& ceil_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Ceil>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
