#pragma once

#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel.h"

// Note [Fused epilogue]
// Fusion at load (Note [Fusion at load], runtime/executor/fuse.h) rewrites a convolution or
// matrix product followed by relu, hardtanh, clamp or hardswish into one call of a fused
// entry that applies the activation to each block of output right after computing it,
// while the block is still in cache: no second pass over memory.
//
// A fused entry is an OpFunction of a kernel library, declared here weak: a runner that
// does not link the library's kernel for the operator has a null pointer, and nothing is
// fused. Its values are the operator's own (the call's values before its out, in the
// schema's order), then three values describing the epilogue, then the out and the return
// slot as the exporter writes them:
//   [inputs of the operator..., Int kind, Double lo, Double hi, Int bytes, out, out]
// (bytes: the memory the rewrite took, for the runner's report; the entry ignores it).
// The fusion pass builds that list, so the entry reads it without checking kinds again.
namespace rt {

enum class EpilogueKind : uint8_t {
  None,       // the operator alone (a batch norm folded into a convolution, nothing after)
  Relu,       // relu.out: max(x, 0), NaN kept
  Clamp,      // hardtanh.out, clamp.out: min(max(x, lo), hi), a missing bound infinite
  Hardswish,  // hardswish.out: x * min(max(x + 3, 0), 6) / 6
  Sigmoid,    // sigmoid.out
  Silu,       // sigmoid.out of x, then mul.out of x and it (SiLU as the exporter writes it)
};

struct Epilogue {
  EpilogueKind kind;
  float lo, hi;
};

// Values a fused call adds before its out: kind, lo, hi, bytes.
constexpr size_t kEpilogueValues = 4;

// The epilogue of a fused call whose operator has `inputs` values before its epilogue.
inline Epilogue read_epilogue(Span<EValue* const> args, size_t inputs) {
  return Epilogue{static_cast<EpilogueKind>(args[inputs]->to_int()),
                  static_cast<float>(args[inputs + 1]->to_double()),
                  static_cast<float>(args[inputs + 2]->to_double())};
}

// The fused entries, each with the inputs of its operator: convolution the 9 of
// aten::convolution.out (input, weight, bias, stride, padding, dilation, transposed,
// output_padding, groups), addmm the 5 of aten::addmm.out (self, mat1, mat2, beta, alpha),
// mm the 2 of aten::mm.out. Each `accepts` is false for a call its entry would not compute
// fast (another dtype, a transposed convolution, an addmm that is not a Linear's), which
// then stays as it is.
namespace fused {
void convolution(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
bool convolution_accepts(Span<EValue* const> args) __attribute__((weak));
void addmm(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
bool addmm_accepts(Span<EValue* const> args) __attribute__((weak));
void mm(KernelContext& context, Span<EValue* const> args) __attribute__((weak));
bool mm_accepts(Span<EValue* const> args) __attribute__((weak));
}  // namespace fused

}  // namespace rt
