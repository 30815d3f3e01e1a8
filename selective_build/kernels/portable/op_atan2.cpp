#include <cmath>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::atan2.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// atan2(self, other); integers and bool compute in Float.
struct Atan2 {
  static constexpr bool kHasScalar = false;
  static constexpr BinaryKind kKind = BinaryKind::kTrueDivision;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kFloatingDtypes;
  template <typename M>
  static M apply(M x, M y, M) {
    return std::atan2(x, y);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& atan2_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                      rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, Atan2>(context, kOp, self, other, out);
  return out;
}

}  // namespace portable
