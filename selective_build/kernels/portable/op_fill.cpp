#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/creation.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kScalarOp = "aten::fill.Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

constexpr const char* kTensorOp = "aten::fill.Tensor_out";
using TensorDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kTensorOp).bits(),
                                       rt::selected_dtypes(kTensorOp).bits()>;

// The checks both overloads share: out has self's dtype and takes its shape.
bool plan_fill(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out) {
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return false;
  }
  return resize_out(in, out, self.sizes().data(), self.dim());
}

}  // namespace

// fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out) -> Tensor(a!)
// out = self's shape, every element `value` (which must fit self's dtype, as in torch).
rt::Tensor& fill_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar value,
                            rt::Tensor& out) {
  const rt::OpContext in(context, kScalarOp);
  CopyConverter converter;
  if (!ScalarDtypes::run(context, kScalarOp, out.dtype(),
                         [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); }) ||
      !plan_fill(in, self, out)) {
    return out;
  }
  if (!scalar_fits(out.dtype(), value)) {
    in.fail("value does not fit in out's dtype");
    return out;
  }
  uint8_t bytes[8];
  copy_store_scalar(converter, value, bytes);
  copy_fill(out, bytes);
  return out;
}

// fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out) -> Tensor(a!)
// The same with the value of a 0-dim tensor, converted to self's dtype as a cast.
rt::Tensor& fill_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                            const rt::Tensor& value, rt::Tensor& out) {
  const rt::OpContext in(context, kTensorOp);
  CopyConverter converter;
  auto set = [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); };
  auto source = [&](auto t) { copy_set_source<typename decltype(t)::type>(converter); };
  if (!TensorDtypes::run(context, kTensorOp, out.dtype(), set) ||
      !TensorDtypes::run(context, kTensorOp, value.dtype(), source) || !plan_fill(in, self, out)) {
    return out;
  }
  if (value.dim() != 0) {
    in.fail("value must be a 0-dim tensor");
    return out;
  }
  uint8_t bytes[8];
  const uint8_t* from = static_cast<const uint8_t*>(value.data());
  if (converter.floating_source) {
    converter.store_double(bytes, converter.load_double(from));
  } else {
    converter.store_int(bytes, converter.load_int(from));
  }
  copy_fill(out, bytes);
  return out;
}

}  // namespace portable
