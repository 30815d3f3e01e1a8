#pragma once

// The source's own generated header (codegen/render.py), found through the include folder
// its compile command names for it.
#include "declared_op_dtypes.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/dtype_set.h"

namespace kernels {
namespace detail {
// Not constexpr on purpose: reached while declared_dtypes() is evaluated at compile time,
// it stops the compile naming itself: the argument asked for is not one of the operator's
// tensor arguments.
inline rt::DtypeSet not_a_tensor_argument_of_the_schema() { return rt::DtypeSet(); }
}  // namespace detail

// Note [Declared dtypes] (codegen/declared_dtypes.py): the dtypes the functions.yaml entry of
// operator `op` declares: its `dtypes:` (every dtype when it has none), or with `argument`,
// the dtypes of that tensor argument. A kernel dispatches on these, narrowed to the build's
// selection: rt::DtypeDispatch<declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>.
// An operator its library has no entry for (a source some of whose operators a library
// leaves out) declares none, as an unselected one selects none.
constexpr rt::DtypeSet declared_dtypes(const char* op, const char* argument = "") {
  bool declared = false;
  for (const rt::ArgumentDtypes& row : declared::kDtypes) {
    if (!rt::detail::same_name(row.op, op)) continue;
    if (rt::detail::same_name(row.argument, argument)) return row.dtypes;
    declared = true;
  }
  return declared ? detail::not_a_tensor_argument_of_the_schema() : rt::DtypeSet();
}

// The dispatches of an operator whose out has dtypes of its own (`argument_dtypes: {out:
// ...}`, a quantize's integer out, a dequantize's float one): In over its other tensors,
// Out over its out, each narrowed to the build's selection of operator *kOp.
template <const char* const* kOp>
struct InOutDispatch {
  using In = rt::DtypeDispatch<declared_dtypes(*kOp).bits(), rt::selected_dtypes(*kOp).bits()>;
  using Out =
      rt::DtypeDispatch<declared_dtypes(*kOp, "out").bits(), rt::selected_dtypes(*kOp).bits()>;
};

}  // namespace kernels
