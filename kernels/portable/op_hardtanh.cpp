#include <cstdint>

#include "kernels/portable/util/unary_clamp.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::hardtanh.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealDtypes.bits(), kSelected.bits()>;

}  // namespace

// hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)
// clamp(self, min_val, max_val) in self's dtype: unlike clamp, the limits do
// not promote; for integer tensors they are truncated to integers (torch).
void hardtanh_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::Scalar min_val = in.scalar(1, "min_val");
  const rt::Scalar max_val = in.scalar(2, "max_val");
  rt::Tensor* out = in.tensor(3, "out");
  if (!in.ok()) return;
  UnaryClamp clamp{min_val, max_val, true, true};
  const ScalarType dtype = self->dtype();
  if (rt::is_integral_type(dtype, false)) {
    const int64_t lo = min_val.to<int64_t>();
    const int64_t hi = max_val.to<int64_t>();
    if (dtype == ScalarType::Byte && (lo < 0 || hi < 0)) {
      return in.fail("cannot do hardtanh on an unsigned type with negative limits");
    }
    if (!unary_integer_fits(dtype, lo) || !unary_integer_fits(dtype, hi)) {
      return in.fail("a limit does not fit in self's dtype");
    }
  }
  unary_map<Dtypes, Dtypes>(in, *self, *out, dtype, clamp);
}

}  // namespace portable
