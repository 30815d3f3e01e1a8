#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::masked_fill.Scalar_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
constexpr uint32_t kMaskBits = kernels::declared_dtypes(kOp, "mask").bits();

// torch converts the fill value with an overflow check (c10's overflows):
// integers and bool (as 0..1) take values in range, and an unsigned dtype
// also the negatives of its range when the value is an int; floats take
// finite values within the dtype's largest (and inf, NaN).
bool value_fits(rt::Scalar value, ScalarType dtype) {
  if (value.is_bool()) return true;
  const double v = value.to<double>();
  if (rt::is_floating_type(dtype)) {
    if (!value.is_floating() || !std::isfinite(v)) return true;
    const double max = dtype == ScalarType::Half       ? 65504.0
                       : dtype == ScalarType::BFloat16 ? 3.3895313892515355e38
                       : dtype == ScalarType::Float    ? 3.4028234663852886e38
                                                       : 1.7976931348623157e308;
    return std::fabs(v) <= max;
  }
  const int bits = dtype == ScalarType::Bool ? 1 : static_cast<int>(rt::element_size(dtype)) * 8;
  const bool is_unsigned = dtype == ScalarType::Byte || dtype == ScalarType::Bool;
  const double max = is_unsigned ? std::ldexp(1.0, bits) - 1 : std::ldexp(1.0, bits - 1) - 1;
  const double min = !is_unsigned ? -std::ldexp(1.0, bits - 1) : value.is_floating() ? 0.0 : -max;
  if (!value.is_floating() && bits == 64) return true;  // an int64 value always fits int64
  return v >= min && v <= max;
}

// out = mask ? value : self, by bytes: value was converted to self's dtype.
__attribute__((noinline)) void masked_fill_rows(StridedWalk<3>& walk, const rt::Tensor& self,
                                                const rt::Tensor& mask, rt::Tensor& out,
                                                const uint8_t* value) {
  const size_t size = out.element_size();
  const int64_t n = walk.row_size();
  const int64_t so = walk.row_stride(0) * static_cast<int64_t>(size);
  const int64_t ss = walk.row_stride(1) * static_cast<int64_t>(size);
  const int64_t sm = walk.row_stride(2);
  do {
    uint8_t* o = static_cast<uint8_t*>(out.data()) + walk.offset(0) * size;
    const uint8_t* s = static_cast<const uint8_t*>(self.data()) + walk.offset(1) * size;
    const uint8_t* m = static_cast<const uint8_t*>(mask.data()) + walk.offset(2);
    for (int64_t i = 0; i < n; ++i) memcpy(o + i * so, m[i * sm] != 0 ? value : s + i * ss, size);
  } while (walk.next_row());
}

}  // namespace

// masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& masked_fill_Scalar_out(rt::KernelContext& context, const rt::Tensor& self,
                                   const rt::Tensor& mask, rt::Scalar value, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!context.check_dtype(kOp, mask.dtype(), kMaskBits, kMaskBits & Dtypes::kEnabled.bits()) ||
      !Dtypes::check(context, kOp, self.dtype())) {
    return out;
  }
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  if (!value_fits(value, self.dtype())) {
    in.fail("value cannot be converted to self's dtype without overflow");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!broadcast_shape(self, mask, sizes, &dim)) {
    in.fail("self and mask cannot be broadcast together");
    return out;
  }
  if (!rt::resize_out(in, out, sizes, dim) || out.numel() == 0) return out;
  alignas(8) uint8_t converted[8];
  if (!Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        store_as<T, T>(converted, value.to<T>());
      })) {
    return out;
  }
  StridedWalk<3> walk;
  walk.init(sizes, dim);
  walk.set_operand(0, out);
  walk.set_operand(1, self);
  walk.set_operand(2, mask);
  masked_fill_rows(walk, self, mask, out, converted);
  return out;
}

}  // namespace portable
