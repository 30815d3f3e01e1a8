#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::maximum.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// Elementwise maximum; NaN wins.
struct Maximum {
  static constexpr bool kHasScalar = false;
  template <typename M>
  static M apply(M x, M y, M) {
    return op_maximum(x, y);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& maximum_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                        rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, Maximum>(context, kOp, self, other, out);
  return out;
}

}  // namespace portable
