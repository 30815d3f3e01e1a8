#include <type_traits>

#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {
namespace {

constexpr const char* kOp = "aten::_local_scalar_dense";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// aten::_local_scalar_dense(Tensor self) -> Scalar: the value of a one-element tensor.
void _local_scalar_dense(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 2);
  const rt::Tensor* self = in.tensor(0, "self");
  if (!in.ok()) return;
  if (self->numel() != 1) return in.fail("self must have exactly one element");
  rt::EValue& result = *args[1];
  Dtypes::run(context, kOp, self->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T value = *self->data_as<T>();
    if constexpr (std::is_same<T, bool>::value) {
      result = rt::EValue::from_bool(value);
    } else if constexpr (std::is_integral<T>::value) {
      result = rt::EValue::from_int(static_cast<int64_t>(value));
    } else {
      result = rt::EValue::from_double(rt::value_cast<double>(value));
    }
  });
}

}  // namespace prim
