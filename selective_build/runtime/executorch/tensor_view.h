#pragma once

#include <executorch/runtime/core/portable_type/tensor_impl.h>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"

namespace rt_et {

// Points `view` at `impl`'s data with its dtype, sizes and dim order (ExecuTorch's int32
// sizes and uint8 dim order are ours; the strides follow from them, as ExecuTorch's do).
// No element is copied. NotSupported: more dims than ours (8).
rt::Status view_tensor(executorch::runtime::etensor::TensorImpl* impl, rt::Tensor* view);

}  // namespace rt_et
