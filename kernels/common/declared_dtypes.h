#pragma once

// The source's own generated header (codegen/render.py), found through the include folder
// its compile command names for it.
#include "declared_op_dtypes.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/dtype_set.h"

namespace kernels {
namespace detail {
// Not constexpr on purpose: reached while declared_dtypes() is evaluated at compile time,
// it stops the compile naming itself. The operator asked for has no entry of this source in
// its library's functions.yaml, or the argument is not one of its schema's tensor arguments.
inline rt::DtypeSet no_such_operator_or_tensor_argument_in_functions_yaml() {
  return rt::DtypeSet();
}
}  // namespace detail

// Note [Declared dtypes] (codegen/declared_dtypes.py): the dtypes the functions.yaml entry of
// operator `op` declares: its `dtypes:` (every dtype when it has none), or with `argument`,
// the dtypes of that tensor argument. A kernel dispatches on these, narrowed to the build's
// selection: rt::DtypeDispatch<declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>.
constexpr rt::DtypeSet declared_dtypes(const char* op, const char* argument = "") {
  for (const rt::ArgumentDtypes& row : declared::kDtypes) {
    if (rt::detail::same_name(row.op, op) && rt::detail::same_name(row.argument, argument)) {
      return row.dtypes;
    }
  }
  return detail::no_such_operator_or_tensor_argument_in_functions_yaml();
}

}  // namespace kernels
