#pragma once

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel.h"

// Note [Unread outs]
// An exported max pool is max_pool2d_with_indices.out, whose second out, the indices, an
// inference program almost never reads: a conv net takes the values alone. Computing an
// index per output costs as much as its value (a compare, a blend and an 8-byte store per
// output on top of the value's compare and blend). At load, fusion (Note [Fusion at load],
// runtime/executor/fuse.cpp) points each call whose indices no instruction reads, the method
// does not return and nothing else refers to (the value is referenced by the call alone:
// its out argument and its return list, which is referenced by the call alone) at this
// entry, which writes the same values and leaves the indices' memory as it is wherever the
// kernel's vector loop computes them. The entry is the optimized library's, declared weak:
// null in runners without it, and then no call is rewritten; `accepts` is false for a call
// whose dtype that library does not compile (a dtype-selective build). It takes the call's own values
// as the exporter lays them out: self, kernel_size, stride, padding, dilation, ceil_mode,
// out, indices, [out, indices].
namespace rt {
namespace fused {
void max_pool2d_values(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
bool max_pool2d_values_accepts(Span<EValue* const> args) __attribute__((weak));
}  // namespace fused
}  // namespace rt
