#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::abs.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

struct Abs : UnaryStateless<Abs> {
  // |x|; the most negative integer stays itself (wraps), as in torch.
  template <typename M>
  static M apply(M x) {
    if constexpr (std::is_unsigned<M>::value) {
      return x;
    } else if constexpr (std::is_integral<M>::value) {
      return x < 0 ? static_cast<M>(uint64_t(0) - static_cast<uint64_t>(x)) : x;
    } else {
      return std::fabs(x);
    }
  }
};

}  // namespace

// abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& abs_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Abs>(context, kOp, self, out, false);
  return out;
}

}  // namespace portable
