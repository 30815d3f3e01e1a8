#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/layout.h"
#include "kernels/optimized/elem/loops.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::logical_not.out";
// Bool to Bool (masks); other dtypes resolve to portable.
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// Bool self and out in one layout: one loop over their bytes (any nonzero byte is true,
// as portable reads a bool). Otherwise portable's template, with every check.
rt::Tensor& logical_not_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const bool fast = Dtypes::kEnabled.contains(rt::ScalarType::Bool) &&
                    self.dtype() == rt::ScalarType::Bool && out.dtype() == rt::ScalarType::Bool &&
                    ((self.is_contiguous() && out.is_contiguous()) || same_layout(self, out));
  if (!fast) {
    portable::unary_map<Dtypes, Dtypes, portable::LogicalNot>(in, self, out, rt::ScalarType::Bool,
                                                              portable::LogicalNot());
    return out;
  }
  if (!rt::resize_out(in, out, self.sizes().data(), self.dim())) return out;
  const uint8_t* x = self.data_as<const uint8_t>();
  uint8_t* y = out.data_as<uint8_t>();
  const int64_t n = out.numel();
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {  // Note [Blocked loops]: vectorised at -O2
    uint8_t r[kBlock];
    for (int64_t k = 0; k < kBlock; ++k) r[k] = x[i + k] == 0 ? 1 : 0;
    for (int64_t k = 0; k < kBlock; ++k) y[i + k] = r[k];
  }
  for (; i < n; ++i) y[i] = x[i] == 0 ? 1 : 0;
  return out;
}

}  // namespace optimized
