#pragma once

#include "kernels/common/declared_dtypes.h"
#include "runtime/core/scalar_type.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/dtype_set.h"

namespace optimized {

// The dispatch of the optimized kernel named *kName: the dtypes its functions.yaml entry
// declares (`[Float]`, so a model's other dtypes resolve to the next library: Note
// [Declared dtypes]), narrowed to what the build selected (Note [Dtype selection]).
template <const char* const* kName>
using FloatDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(*kName).bits(), rt::selected_dtypes(*kName).bits()>;

}  // namespace optimized
