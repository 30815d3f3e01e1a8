#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::logical_or.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// Operands of any dtype read as bool (nonzero, NaN included, is true); the
// bool result is stored into out of any dtype.
struct LogicalOr {
  static constexpr bool kHasScalar = false;
  static constexpr BinaryKind kKind = BinaryKind::kLogical;
  static constexpr rt::DtypeSet kComputeDtypes = rt::DtypeSet::of(ScalarType::Bool);
  template <typename M>
  static bool apply(M x, M y, M) {
    return x || y;
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& logical_or_out(rt::KernelContext& context, const rt::Tensor& self,
                           const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, LogicalOr>(context, kOp, self, other, out);
  return out;
}

}  // namespace portable
