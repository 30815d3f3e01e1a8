#pragma once

#include "runtime/core/scalar_type.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/dtype_set.h"

namespace optimized {

// The dtypes of a Float-only kernel named *kName (its functions.yaml entry
// declares `dtypes: [Float]`, so a model's other dtypes resolve to the next
// library), narrowed to what the build selected (Note [Dtype selection]).
template <const char* const* kName>
using FloatDtypes = rt::DtypeDispatch<rt::DtypeSet::of(rt::ScalarType::Float).bits(),
                                      rt::selected_dtypes(*kName).bits()>;

}  // namespace optimized
