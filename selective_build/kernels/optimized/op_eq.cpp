#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/layout.h"
#include "kernels/optimized/elem/loops.h"
#include "kernels/portable/util/binary_functors.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::eq.Scalar_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
// A Float self against a number (converted to float first, as torch and portable do: a
// Python scalar does not promote a float tensor) into a Bool out of self's layout: one
// loop over memory. Anything else: portable's template, which also does every check.
rt::Tensor& eq_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                          rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const bool fast = Dtypes::kEnabled.contains(rt::ScalarType::Float) &&
                    Dtypes::kEnabled.contains(rt::ScalarType::Bool) &&
                    self.dtype() == rt::ScalarType::Float && out.dtype() == rt::ScalarType::Bool &&
                    !other.is_bool() &&
                    ((self.is_contiguous() && out.is_contiguous()) || same_layout(self, out));
  if (!fast) {
    portable::binary_scalar_kernel<Dtypes, portable::Equal>(context, kOp, self, other, out);
    return out;
  }
  if (!rt::resize_out(in, out, self.sizes().data(), self.dim())) return out;
  const float value = other.to<float>();
  const float* x = self.data_as<const float>();
  uint8_t* y = out.data_as<uint8_t>();
  const int64_t n = out.numel();
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {  // Note [Blocked loops]: vectorised at -O2
    uint8_t r[kBlock];
    for (int64_t k = 0; k < kBlock; ++k) r[k] = x[i + k] == value ? 1 : 0;
    for (int64_t k = 0; k < kBlock; ++k) y[i + k] = r[k];
  }
  for (; i < n; ++i) y[i] = x[i] == value ? 1 : 0;
  return out;
}

}  // namespace optimized
