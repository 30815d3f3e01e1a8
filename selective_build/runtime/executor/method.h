#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/message.h"
#include "runtime/core/span.h"
#include "runtime/executor/call_profile.h"
#include "runtime/executor/fold.h"
#include "runtime/executor/fuse.h"
#include "runtime/executor/instructions.h"
#include "runtime/executor/prepare.h"
#include "runtime/executor/quantize_calls.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/memory_plan.h"
#include "runtime/loader/program.h"

namespace rt {

// One execution plan, loaded: its values, planned memory and resolved
// instructions. All memory is taken in load(); execute() allocates nothing.
// Failure messages may point into the Method: keep it alive to print them.
class Method {
 public:
  Method() = default;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;

  // Loads the plan `name`. Every KernelCall is resolved here, so a missing
  // operator or backend fails now rather than halfway through execution.
  Status load(const Program& program, const char* name, const KernelRegistry& registry);

  size_t num_inputs() const { return inputs_.size; }
  size_t num_outputs() const { return outputs_.size; }
  const EValue& input(size_t index) const { return *inputs_.items[index]; }
  const EValue& output(size_t index) const { return *outputs_.items[index]; }

  // Copies `value` into tensor input `index`. It must have the input's
  // dtype and shape (a dynamic input is resized within its planned
  // capacity); its data is read in row-major order.
  Status set_input(size_t index, const Tensor& value);

  // Bytes of memory given to the outputs of kernel calls folded at load
  // (Note [Constant folding at load] in fold.h).
  size_t folded_bytes() const { return rt::folded_bytes(instructions_); }

  // Bytes of memory kernels took at load for what they prepared (Note [Prepared weights]
  // in runtime/kernel/kernel_context.h).
  size_t prepared_bytes() const { return rt::prepared_bytes(instructions_); }

  // The calls fused at load and the memory they took (Note [Fusion at load] in fuse.h).
  FusionStats fusion() const { return rt::fusion_stats(instructions_); }

  // The calls quantized at load and the memory they took (Note [Quantized calls at load] in
  // quantize_calls.h).
  QuantizedStats quantized() const { return rt::quantized_stats(instructions_); }

  // The kernel calls each run makes: what the load-time rewrites (calls folded, fused or
  // quantized, each an instruction that runs no more) left to run.
  size_t kernel_calls() const {
    size_t calls = 0;
    for (const Instruction& instruction : instructions_)
      calls += instruction.kind == Instruction::Kind::Kernel ? 1 : 0;
    return calls;
  }

#ifdef RT_CHANNELS_LAST
  // The method's tensors that are channels last (Note [Channels last] in channels_last.h):
  // given that dim order at load, or exported with it.
  size_t channels_last_tensors() const {
    size_t count = 0;
    for (const EValue& value : values_)
      count += value.is_tensor() && value.to_tensor().is_channels_last() ? 1 : 0;
    return count;
  }
#endif

  // Runs chain 0 once.
  Status execute();

#ifdef RT_PROFILE_CALLS
  // Note [Call profile]: each instruction's calls and times over the runs so far, and the
  // instructions (their kernels' names and arguments).
  Span<const CallTimes> call_times() const { return {call_times_.data(), call_times_.size()}; }
  Span<const Instruction> instructions() const {
    return {instructions_.data(), instructions_.size()};
  }
#endif

 private:
  Arena arena_;
  PlannedMemory memory_;
  Span<EValue> values_{};
  BoxedList inputs_ = {};
  BoxedList outputs_ = {};
  Span<Instruction> instructions_{};
  KernelContext context_;
  Message message_;
#ifdef RT_PROFILE_CALLS
  Span<CallTimes> call_times_{};
#endif
};

}  // namespace rt
