#include "runtime/executor/fold.h"

#include <cstdint>

namespace rt {
namespace {

// How many times a value is written; saturates so a hostile program cannot
// wrap it back to 1.
void count_write(uint8_t* writes, Span<EValue> values, const EValue* value) {
  uint8_t& count = writes[value - values.data()];
  if (count < 2) ++count;
}

// Counts every write the chain and the caller can make (Note [Constant
// folding at load] in fold.h); a call whose outs are not its return slot was
// not marked pure_out at load (decode_kernel_call). Returns false if the chain
// has a jump.
bool count_writes(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                  uint8_t* writes) {
  for (uint32_t i = 0; i < inputs.size; ++i) count_write(writes, values, inputs.items[i]);
  for (Instruction& instruction : instructions) {
    if (instruction.kind == Instruction::Kind::JumpFalse) return false;
    if (instruction.kind == Instruction::Kind::Move)
      count_write(writes, values, &values[instruction.second]);
    if (instruction.kind != Instruction::Kind::Kernel) continue;
    const size_t count = instruction.args.size();
    // A call that may write any argument: every one of them, list items too.
    const size_t first = instruction.pure_out ? count - 1 : 0;
    for (size_t a = first; a < count; ++a) {
      const EValue* arg = instruction.args[a];
      count_write(writes, values, arg);
      if (arg->tag() == Tag::TensorList || arg->tag() == Tag::OptionalTensorList ||
          arg->tag() == Tag::IntList) {
        const BoxedList items = arg->to_list();
        for (uint32_t k = 0; k < items.size; ++k) {
          if (items.items[k] != nullptr) count_write(writes, values, items.items[k]);
        }
      }
    }
  }
  return true;
}

// The bytes of the call's constant tensor inputs, or SIZE_MAX if an input other than
// `out` is not constant.
size_t constant_input_bytes(const ConstantValues& constants, const Instruction& call,
                            const EValue* out) {
  size_t bytes = 0;
  for (EValue* const arg : call.args) {
    if (arg == out) continue;  // the out argument, listed again as the return slot
    if (!constants.constant(arg)) return SIZE_MAX;
    if (arg->is_tensor()) bytes += arg->to_tensor().nbytes();
  }
  return bytes;
}

}  // namespace

bool ConstantValues::constant(const EValue* value, bool item) const {
  if (writes == nullptr) return false;
  if (!owns(values, value)) return true;
  const size_t index = static_cast<size_t>(value - values.data());
  if (writes[index] != 0) return folded[index] != 0;
  if (value->is_tensor()) return program->holds(value->to_tensor().data());
  if (value->tag() == Tag::TensorList || value->tag() == Tag::OptionalTensorList ||
      value->tag() == Tag::IntList) {
    if (item) return false;
    const BoxedList items = value->to_list();
    for (uint32_t k = 0; k < items.size; ++k) {
      if (items.items[k] != nullptr && !constant(items.items[k], true)) return false;
    }
  }
  return true;
}

Status fold_constants(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                      const Program& program, Arena& arena, KernelContext& context,
                      ConstantValues* constants) {
  uint8_t* writes = arena.allocate_array<uint8_t>(values.size() * 2);
  if (writes == nullptr)
    return Status(Error::OutOfMemory, "out of memory while loading the method");
  if (!count_writes(instructions, values, inputs, writes)) return Status();
  *constants = ConstantValues{values, &program, writes, writes + values.size()};

  // The cap on all folded outs: twice the method's constant tensors (a
  // weight transposed, then reshaped, is two copies of it).
  size_t budget = 0;
  for (EValue& value : values) {
    if (value.is_tensor() && constants->constant(&value)) budget += 2 * value.to_tensor().nbytes();
  }
  for (Instruction& call : instructions) {
    if (call.kind != Instruction::Kind::Kernel || !call.pure_out || call.args.size() == 0) continue;
    EValue* out = call.args[call.args.size() - 1];
    const size_t index = static_cast<size_t>(out - values.data());
    if (!out->is_tensor() || writes[index] != 1 || constants->constant(out)) continue;
    Tensor& tensor = out->to_tensor();
    const size_t inputs_bytes = constant_input_bytes(*constants, call, out);
    if (inputs_bytes == SIZE_MAX || tensor.capacity() == 0 || tensor.capacity() > inputs_bytes ||
        tensor.capacity() > budget)
      continue;
    void* data = arena.allocate(tensor.capacity());
    if (data == nullptr)
      return Status(Error::OutOfMemory, "out of memory while loading the method");
    tensor.set_data(data);
    context.clear();
    call.fn(context, call.args);
    if (context.failed()) return context.status();
    budget -= tensor.capacity();
    constants->folded[index] = 1;
    call.kind = Instruction::Kind::Folded;
  }
  return Status();
}

size_t folded_bytes(Span<Instruction> instructions) {
  size_t bytes = 0;
  for (const Instruction& call : instructions) {
    if (call.kind == Instruction::Kind::Folded)
      bytes += call.args[call.args.size() - 1]->to_tensor().capacity();
  }
  return bytes;
}

}  // namespace rt
