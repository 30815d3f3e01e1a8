#pragma once

// Our kernels called by ExecuTorch's runtime (`runtime = "executorch"` targets).
//
// Note [ExecuTorch kernel adapter]
// ExecuTorch calls a registered kernel as `fn(KernelRuntimeContext&, Span<EValue*>)`, the
// call's values in the emitter's order (Note [Kernel call layout] in codegen/unboxing.py).
// The generated registration (codegen/executorch/registration.py) hands each call to
// `run_kernel` with the kernel's row, the same row our own registry holds: its name, its
// layout and its unboxing wrapper. `run_kernel` mirrors the call's values as ours on the
// stack (numbers copied, tensors viewed: our Tensor over the same data, no element copied),
// checks them against the layout as our method's load does, calls the wrapper, then hands
// back what the kernel changed: a number it returned, a tensor's data pointer. An output
// resize goes through ExecuTorch's `resize_tensor` when the kernel asks for it (our
// `resize_out`, defined here for these targets instead of runtime/kernel/kernel_args.cpp),
// before the kernel writes a byte, so ExecuTorch's bounds hold. A failure reaches
// ExecuTorch as `context.fail(...)`, its message through ExecuTorch's log.

#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/kernel/operator_registry.h>

#include "runtime/kernel/kernel.h"

namespace rt_et {

// Runs `kernel` (a row of the generated table) on a call from ExecuTorch's runtime.
void run_kernel(const rt::Kernel& kernel, executorch::runtime::KernelRuntimeContext& context,
                executorch::runtime::Span<executorch::runtime::EValue*> stack);

// Registers the generated table with ExecuTorch's registry; on a refusal (a full
// registry) logs one line naming the cause and returns false. Called from a static
// initializer.
bool register_selected(executorch::runtime::Span<const executorch::runtime::Kernel> kernels);

// Whether the selected kernels registered, set when the program starts (defined by the
// generated registration). An app that links the target's static library without
// --whole-archive names it to link the registration in.
extern const bool selected_kernels_registered;

}  // namespace rt_et
