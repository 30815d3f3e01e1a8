#include <cstdint>

#include "kernels/common/declared_dtypes.h"
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
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)
// clamp(self, min_val, max_val) in self's dtype: unlike clamp, the limits do
// not promote; for integer tensors they are truncated to integers (torch).
rt::Tensor& hardtanh_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar min_val,
                         rt::Scalar max_val, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  UnaryClamp clamp{min_val, max_val, true, true};
  const ScalarType dtype = self.dtype();
  if (rt::is_integral_type(dtype, false)) {
    const int64_t lo = min_val.to<int64_t>();
    const int64_t hi = max_val.to<int64_t>();
    if (dtype == ScalarType::Byte && (lo < 0 || hi < 0)) {
      in.fail("cannot do hardtanh on an unsigned type with negative limits");
      return out;
    }
    if (!unary_integer_fits(dtype, lo) || !unary_integer_fits(dtype, hi)) {
      in.fail("a limit does not fit in self's dtype");
      return out;
    }
  }
  unary_map<Dtypes, Dtypes>(in, self, out, dtype, clamp);
  return out;
}

}  // namespace portable
