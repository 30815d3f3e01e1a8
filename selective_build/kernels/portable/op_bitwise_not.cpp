#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::bitwise_not.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// ~x on integers, !x on bools.
struct BitwiseNot : UnaryStateless<BitwiseNot> {
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_same<M, bool>::value) {
      return !x;
    } else {
      return static_cast<M>(~x);
    }
  }
};

}  // namespace

// bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_not_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, BitwiseNot>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
