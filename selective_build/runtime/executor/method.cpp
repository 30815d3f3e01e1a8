#include "runtime/executor/method.h"

#include <cstring>

#ifdef RT_PREPARE
#include "runtime/executor/prepare.h"
#endif
#ifdef RT_QUANT_CALLS
#include "runtime/executor/quantize_calls.h"
#endif
#ifdef RT_CHANNELS_LAST
#include "runtime/executor/channels_last.h"
#endif
#ifdef RT_PLACE_CATS
#include "runtime/executor/place_cats.h"
#endif

#include "runtime/loader/schema.h"
#include "runtime/loader/value_list.h"
#include "runtime/loader/values.h"

namespace rt {
namespace {

// A program whose jumps keep going backwards this often is taken to be stuck.
constexpr uint32_t kMaxBackwardJumps = 1u << 20;

}  // namespace

Status Method::load(const Program& program, const char* name, const KernelRegistry& registry) {
  fb::Reader reader(program.flatbuffer());
  const fb::Table plan = program.plan(reader, name);
  if (!plan.present() && reader.ok())
    return Status(Error::InvalidInput, "the program has no method of that name");
  // After a failure the steps below stop early (their loops check the
  // reader; absent tables read as empty) and keep the first failure.
  memory_.allocate(reader, plan, arena_);
  values_ = load_values(reader, program, plan, memory_, arena_);
  reader.reading("method input or output list is malformed");
  const fb::Vector inputs = reader.vector(plan, schema::execution_plan::kInputs, 4);
  const fb::Vector outputs = reader.vector(plan, schema::execution_plan::kOutputs, 4);
  inputs_ = resolve_values(reader, inputs, false, false, values_, arena_);
  outputs_ = resolve_values(reader, outputs, false, false, values_, arena_);
  // After a failure it reads nothing (chain 0 reads as empty).
  instructions_ = decode_instructions(reader, plan, values_, registry, arena_, message_);
#ifdef RT_PROFILE_CALLS
  // Note [Call profile].
  call_times_ = {arena_.allocate_array<CallTimes>(instructions_.size()), instructions_.size()};
  if (call_times_.data() == nullptr && !instructions_.empty())
    return Status(Error::OutOfMemory, "out of memory for the call profile");
#endif
#if defined(RT_PREPARE) || defined(RT_QUANT_CALLS)
  // Note [Prepared weights]: before any kernel runs (folding runs some).
  context_.end_preparing();
  context_.set_prepared(nullptr);
#endif
#ifdef RT_FOLD_CONSTANTS
  ConstantValues constants;
  Status status = reader.status();
#ifdef RT_QUANT_CALLS
  // First: the float chains it replaces are then no-ops to the passes below.
  if (status.ok())
    status = quantize_calls(instructions_, values_, inputs_, outputs_, program, registry, arena_);
#endif
  if (status.ok())
    status = fold_constants(instructions_, values_, inputs_, program, arena_, context_, &constants);
#ifdef RT_FUSE_CALLS
  // Before preparing: a weight with a batch norm folded in is the one to pack.
  if (status.ok())
    status = fuse_calls(instructions_, values_, inputs_, outputs_, program, registry, arena_);
#ifdef RT_CHANNELS_LAST
  // After fusion, whose fused calls are then what reads and writes the activations; before
  // cats are placed, which they are only where their tensors stayed contiguous.
  if (status.ok())
    status = channels_last(instructions_, values_, inputs_, outputs_, program, registry, arena_);
#endif
#ifdef RT_PLACE_CATS
  // After fusion, whose fused calls are then what writes a cat's inputs.
  if (status.ok())
    status = place_cats(instructions_, values_, inputs_, outputs_, program, registry, arena_);
#endif
#endif
#ifdef RT_PREPARE
  if (status.ok())
    status = prepare_calls(instructions_, values_, outputs_, constants, arena_, context_);
#endif
  return status;
#else
  return reader.status();
#endif
}

Status Method::set_input(size_t index, const Tensor& source) {
  if (index >= inputs_.size || !inputs_.items[index]->is_tensor()) {
    return Status(Error::InvalidInput, "input is not a tensor");
  }
  Tensor& target = inputs_.items[index]->to_tensor();
  if (source.dtype() != target.dtype())
    return Status(Error::InvalidInput, "input has the wrong dtype");
  if (!target.resize(source.sizes().data(), source.dim()).ok()) {
    return Status(Error::InvalidInput, "input has the wrong shape");
  }
  // The caller's data is row-major; the input's layout follows its dim order: one copy
  // when that is row-major too, else element by element. The one copy is compiled in with
  // the load-time preparation (Note [Constant folding at load]), for the runners of real
  // models: add_mul's has no code bytes to spare, and its inputs are a few floats.
  const size_t element = source.element_size();
  const uint8_t* from = static_cast<const uint8_t*>(source.data());
  uint8_t* to = static_cast<uint8_t*>(target.data());
#ifdef RT_FOLD_CONSTANTS
  if (target.is_contiguous()) {
    memcpy(to, from, source.nbytes());
    return Status();
  }
#endif
  for (int64_t i = 0; i < source.numel(); ++i)
    memcpy(to + target.offset_of(i) * element, from + i * element, element);
  return Status();
}

Status Method::execute() {
  context_.clear();
  uint32_t backward_jumps = 0;
  for (size_t pc = 0; pc < instructions_.size();) {
    const Instruction& instruction = instructions_[pc++];
    if (instruction.kind == Instruction::Kind::Kernel) {
#if defined(RT_PREPARE) || defined(RT_QUANT_CALLS)
      context_.set_prepared(instruction.prepared);  // Note [Prepared weights]
#endif
#ifdef RT_PROFILE_CALLS
      // Note [Call profile].
      const int64_t start = clock_ns(CLOCK_MONOTONIC);
      instruction.fn(context_, instruction.args);
      CallTimes& times = call_times_[pc - 1];
      times.wall_ns += clock_ns(CLOCK_MONOTONIC) - start;
      ++times.calls;
#else
      instruction.fn(context_, instruction.args);
#endif
      if (context_.failed()) return context_.status();
    } else if (instruction.kind == Instruction::Kind::Move) {
      values_[instruction.second] = values_[instruction.first];
    } else if (instruction.kind == Instruction::Kind::JumpFalse) {
      const EValue& condition = values_[instruction.first];
      if (condition.tag() != Tag::Bool)
        return Status(Error::InvalidProgram, "jump condition is not a bool");
      if (condition.to_bool()) continue;
      if (instruction.second < pc && ++backward_jumps > kMaxBackwardJumps) {
        return Status(Error::InvalidProgram, "program loops without end");
      }
      pc = instruction.second;
    }
    // FreeCall: tensor memory is planned ahead of time, nothing to release.
  }
  return Status();
}

}  // namespace rt
