#pragma once

#include "runtime/kernel/dtype_set.h"

// Note [Dtype selection]
// A build may compile each kernel only for the dtypes its models use. With
// -DRT_DTYPE_SELECTIVE the generated selected_op_variants.h (from the build's
// gendir) lists, per operator, the set of dtypes of every tensor argument any
// model passes to it. A kernel evaluates selected_dtypes(<its op name>) into
// a constexpr DtypeSet and dispatches through DtypeDispatch (dispatch.h),
// whose cases are `if constexpr`: code for an unselected dtype is never
// instantiated, whatever the optimizer does. Calling the kernel on such a
// dtype fails with "<op>: dtype <name> was not selected in this build",
// distinct from "<op>: dtype <name> is not supported".
// Without the define every dtype is selected. An operator missing from the
// generated list gets the empty set, so the generator must list every
// operator of the build (and must not define RT_DTYPE_SELECTIVE when it has
// no entries at all: an empty array does not compile).
#ifdef RT_DTYPE_SELECTIVE
#include "selected_op_variants.h"
#endif

namespace rt {

namespace detail {
constexpr bool same_name(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}
}  // namespace detail

constexpr DtypeSet selected_dtypes(const char* op_name) {
#ifdef RT_DTYPE_SELECTIVE
  for (const OpDtypes& entry : selected::kOpDtypes) {
    if (detail::same_name(entry.op, op_name)) return entry.dtypes;
  }
  return DtypeSet();
#else
  (void)op_name;
  return DtypeSet::all();
#endif
}

}  // namespace rt
