#pragma once

#include <cstddef>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"

namespace rt {

// Note [Kernel key]
// A kernel key names the dtypes and memory layouts a KernelCall passes, so a
// build can register kernels specialized for them. The Python side writes the
// same string into selected_operators.yaml and the generated kernel table,
// so this rule must stay identical to ExecuTorch's gen_oplist:
//   - walk KernelCall.args in order (inputs, out arguments, then the return
//     value, so an .out op's out tensor is counted twice);
//   - a Tensor contributes "<dtype number>;<dim order comma-joined>", and a
//     0-dim tensor "<dtype number>;";
//   - a non-empty TensorList contributes its first element's entry, an
//     OptionalTensorList its first non-None element's entry;
//   - every other value contributes nothing;
//   - entries are joined by '|' after the prefix "v1/"; with no entries at
//     all the key is "v1".
// Example: add.out on float 2-D tensors is "v1/6;0,1|6;0,1|6;0,1|6;0,1".
// (ExecuTorch's own runtime skips list arguments; we follow gen_oplist,
// because the recorded key is the one kernels get registered under.)

// Long enough for 16 tensor entries of 8 dims.
constexpr size_t kKernelKeyCapacity = 320;

// Writes the key for `args` into `buffer` (NUL-terminated). Returns false if
// it did not fit; the truncated text is then only good for messages (where
// it shows as a key cut short).
bool make_kernel_key(Span<EValue* const> args, char* buffer, size_t capacity);

}  // namespace rt
