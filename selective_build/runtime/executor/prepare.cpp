#include "runtime/executor/prepare.h"

#include <cstdint>

namespace rt {
namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr int kMaxChain = 4;  // producers followed back from a preparing call's argument

// How the calls that run use each value: reads counted (saturating at 2), and the pure
// out variant whose out it is (kNone if none).
struct Uses {
  Span<Instruction> instructions;
  Span<EValue> values;
  uint8_t* reads;
  uint32_t* producer;

  size_t index(const EValue* value) const { return static_cast<size_t>(value - values.data()); }

  // A value made at load (owns in fold.h) is read by its one call alone: not counted.
  void read(const EValue* value) {
    if (!owns(values, value)) return;
    uint8_t& count = reads[index(value)];
    if (count < 2) ++count;
    if (value->tag() == Tag::TensorList || value->tag() == Tag::OptionalTensorList) {
      const BoxedList items = value->to_list();
      for (uint32_t k = 0; k < items.size; ++k) {
        if (items.items[k] != nullptr) read(items.items[k]);
      }
    }
  }

  // Every run-time read: kernel calls' arguments (a pure out variant's out and return slot
  // are writes), moves' sources, the method's outputs (read by the caller).
  void count(BoxedList outputs) {
    for (uint32_t i = 0; i < outputs.size; ++i) read(outputs.items[i]), read(outputs.items[i]);
    for (uint32_t pc = 0; pc < instructions.size(); ++pc) {
      const Instruction& call = instructions[pc];
      if (call.kind == Instruction::Kind::Move) read(&values[call.first]);
      const bool runs = call.kind == Instruction::Kind::Kernel;
      if (!runs && call.kind != Instruction::Kind::Folded) continue;
      const size_t count = call.args.size();
      const bool out = call.pure_out && call.args[count - 1]->is_tensor();
      // A folded call read its arguments at load, once.
      for (size_t a = 0; runs && a < (out ? count - 2 : count); ++a) read(call.args[a]);
      if (out) producer[index(call.args[count - 1])] = pc;
    }
  }
};

// A value made on every run from constants alone, its producers run once at load.
struct Chain {
  uint32_t calls[kMaxChain];  // in the order they run
  void* saved[kMaxChain];     // each out's planned data, to put back
  void* made[kMaxChain];      // the arena memory it got at load
  int length = 0;
};

class Preparer {
 public:
  Preparer(Span<Instruction> instructions, const ConstantValues& constants, const Uses& uses,
           Arena& arena, KernelContext& context)
      : instructions_(instructions),
        constants_(constants),
        uses_(uses),
        arena_(arena),
        context_(context) {}

  // Whether `value` (read once, by one call) is made from constants alone by calls that
  // could run now; if so appends them to `chain` (inputs first).
  bool computable(const EValue* value, Chain* chain, int depth) const {
    const size_t index = uses_.index(value);
    const uint32_t pc = uses_.producer[index];
    if (depth >= kMaxChain || uses_.reads[index] != 1 || constants_.writes[index] != 1 ||
        pc == kNone || instructions_[pc].kind != Instruction::Kind::Kernel)
      return false;
    const Instruction& call = instructions_[pc];
    for (size_t a = 0; a + 2 < call.args.size(); ++a) {
      const EValue* arg = call.args[a];
      if (!constants_.constant(arg) && !computable(arg, chain, depth + 1)) return false;
    }
    if (chain->length == kMaxChain) return false;
    chain->calls[chain->length++] = pc;
    return true;
  }

  // Runs the chain's calls into arena memory.
  Status run(Chain* chain) {
    for (int i = 0; i < chain->length; ++i) {
      Instruction& call = instructions_[chain->calls[i]];
      Tensor& out = call.args[call.args.size() - 1]->to_tensor();
      chain->saved[i] = out.data();
      chain->made[i] = arena_.allocate(out.capacity());
      if (chain->made[i] == nullptr)
        return Status(Error::OutOfMemory, "out of memory while preparing the method");
      out.set_data(chain->made[i]);
      context_.clear();
      call.fn(context_, call.args);
      if (context_.failed()) return context_.status();
    }
    return Status();
  }

  // Kept (the call prepared its argument): the chain never runs again, its memory goes.
  // Otherwise it runs on every run into its planned memory, as before.
  void settle(const Chain& chain, bool kept) {
    for (int i = 0; i < chain.length; ++i) {
      Instruction& call = instructions_[chain.calls[i]];
      call.args[call.args.size() - 1]->to_tensor().set_data(chain.saved[i]);
      arena_.release(chain.made[i]);
      if (kept) call.kind = Instruction::Kind::Free;
    }
  }

  // A folded out that only `call`'s prepared argument read: no longer needed.
  void release_folded(const EValue* value) {
    if (!owns(uses_.values, value)) return;
    const size_t index = uses_.index(value);
    const uint32_t pc = uses_.producer[index];
    if (uses_.reads[index] != 1 || pc == kNone ||
        instructions_[pc].kind != Instruction::Kind::Folded)
      return;
    Tensor& out = const_cast<EValue*>(value)->to_tensor();
    arena_.release(out.data());
    out.set_data(nullptr);
    instructions_[pc].kind = Instruction::Kind::Free;
  }

  // A weight fusion made at load (not one of the method's values: a batch norm folded into
  // it, Note [Fusion at load] in fuse.h) that `call`, its one reader, has prepared: the call
  // never reads its data again (Note [Prepared weights]), so its memory goes, and the fused
  // call's bytes (the last of its epilogue values, runtime/kernel/epilogue.h) no longer
  // count it.
  void release_fused(Instruction& call, const EValue* value) {
    if (owns(uses_.values, value) || !value->is_tensor()) return;
    Tensor& weight = const_cast<EValue*>(value)->to_tensor();
    if (weight.data() == nullptr || call.args.size() < 3) return;
    EValue* bytes = call.args[call.args.size() - 3];
    if (bytes->tag() != Tag::Int || bytes->to_int() < static_cast<int64_t>(weight.capacity()))
      return;
    *bytes = EValue::from_int(bytes->to_int() - static_cast<int64_t>(weight.capacity()));
    arena_.release(weight.data());
    weight.set_data(nullptr);
  }

  Status prepare(Instruction& call) {
    uint64_t mask = 0;
    Chain chains[2];  // at most two arguments made at load per call (a and b of a product)
    int made[2] = {-1, -1};
    int count = 0;
    const size_t args = call.args.size() < 64 ? call.args.size() : 64;
    for (size_t a = 0; a < args; ++a) {
      const EValue* arg = call.args[a];
      if (!arg->is_tensor()) continue;
      if (constants_.constant(arg)) {
        mask |= uint64_t{1} << a;
      } else if (count < 2 && computable(arg, &chains[count], 0)) {
        mask |= uint64_t{1} << a;
        made[count++] = static_cast<int>(a);
      } else {
        chains[count] = Chain();  // a failed search may have appended calls
      }
    }
    if (mask == 0) return Status();
    Status status;
    for (int i = 0; i < count && status.ok(); ++i) status = run(&chains[i]);
    KernelContext::Preparing preparing{&arena_, mask, 0};
    if (status.ok()) {
      context_.clear();
      context_.begin_preparing(&preparing);
      call.fn(context_, call.args);
      context_.end_preparing();
      if (context_.failed()) status = context_.status();
    }
    const bool prepared = status.ok() && context_.prepared() != nullptr;
    for (int i = 0; i < count; ++i)
      settle(chains[i], prepared && preparing.arg == static_cast<size_t>(made[i]));
    if (!status.ok()) return status;
    call.prepared = context_.prepared();
    if (prepared) release_folded(call.args[preparing.arg]);
    if (prepared) release_fused(call, call.args[preparing.arg]);
    return Status();
  }

 private:
  Span<Instruction> instructions_;
  const ConstantValues& constants_;
  const Uses& uses_;
  Arena& arena_;
  KernelContext& context_;
};

}  // namespace

Status prepare_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList outputs,
                     const ConstantValues& constants, Arena& arena, KernelContext& context) {
  if (constants.writes == nullptr) return Status();  // control flow: nothing is constant
  uint8_t* reads = arena.allocate_array<uint8_t>(values.size());
  uint32_t* producer = arena.allocate_array<uint32_t>(values.size());
  if (reads == nullptr || producer == nullptr)
    return Status(Error::OutOfMemory, "out of memory while loading the method");
  for (size_t i = 0; i < values.size(); ++i) producer[i] = kNone;
  Uses uses{instructions, values, reads, producer};
  uses.count(outputs);
  Preparer preparer(instructions, constants, uses, arena, context);
  for (Instruction& call : instructions) {
    if (call.kind != Instruction::Kind::Kernel || !call.may_prepare) continue;
    const Status status = preparer.prepare(call);
    if (!status.ok()) return status;
  }
  context.set_prepared(nullptr);
  return Status();
}

size_t prepared_bytes(Span<Instruction> instructions) {
  size_t bytes = 0;
  for (const Instruction& call : instructions) {
    // Only what prepare_calls made: a quantized call's plan (Note [Quantized calls at load],
    // quantize_calls.h) is counted in its own report.
    if (call.may_prepare && call.prepared != nullptr)
      bytes += KernelContext::prepared_size(call.prepared);
  }
  return bytes;
}

}  // namespace rt
