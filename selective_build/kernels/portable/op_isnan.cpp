#include <cmath>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_predicate.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::isnan.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

struct Isnan {
  // Whether x is NaN; never for integers and bool.
  template <typename M>
  static bool test(M x) {
    if constexpr (std::is_floating_point<M>::value) {
      return std::isnan(x);
    } else {
      return false;
    }
  }
};

}  // namespace

// isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& isnan_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_predicate<Dtypes, Isnan>(rt::OpContext(context, kOp), self, out);
  return out;
}

}  // namespace portable
