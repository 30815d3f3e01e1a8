#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {
namespace {

constexpr const char* kOp = "aten::_local_scalar_dense";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// aten::_local_scalar_dense(Tensor self) -> Scalar: the value of a one-element tensor.
rt::EValue _local_scalar_dense(rt::KernelContext& context, const rt::Tensor& self) {
  const rt::OpContext in(context, kOp);
  rt::EValue result = rt::EValue();
  if (self.numel() != 1) {
    in.fail("self must have exactly one element");
    return result;
  }
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T value = *self.data_as<T>();
    if constexpr (std::is_same<T, bool>::value) {
      result = rt::EValue::from_bool(value);
    } else if constexpr (std::is_integral<T>::value) {
      result = rt::EValue::from_int(static_cast<int64_t>(value));
    } else {
      result = rt::EValue::from_double(rt::value_cast<double>(value));
    }
  });
  return result;
}

}  // namespace prim
