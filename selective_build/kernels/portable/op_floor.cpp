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

constexpr const char* kOp = "aten::floor.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Integers are already whole (torch copies them); bool is not supported.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct Floor : UnaryStateless<Floor> {
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_integral<M>::value) {
      return x;
    } else {
      return std::floor(x);
    }
  }
};

}  // namespace

// floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& floor_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Floor>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
