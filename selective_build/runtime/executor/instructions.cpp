#include "runtime/executor/instructions.h"

#ifdef RT_PREPARE
#include "runtime/executor/prepare.h"
#endif

#include <cstdio>
#include <cstring>

#include "runtime/core/no_plt.h"

#include "runtime/kernel/kernel_key.h"
#include "runtime/kernel/unboxing.h"
#include "runtime/loader/schema.h"
#include "runtime/loader/value_list.h"

namespace rt {
namespace {

namespace ins = schema::instruction;

// decode_instructions reads these fields generically, as slots 0 and 1.
static_assert(schema::kernel_call::kOpIndex == 0 && schema::delegate_call::kDelegateIndex == 0 &&
                  schema::move_call::kMoveFrom == 0 && schema::move_call::kMoveTo == 1 &&
                  schema::jump_false_call::kCondValueIndex == 0 &&
                  schema::jump_false_call::kDestinationInstruction == 1 &&
                  schema::free_call::kValueIndex == 0,
              "instruction argument tables keep their indices in slots 0 and 1");

// Move, JumpFalse and Free follow each other in Instruction::Kind as in the
// file's union, so one subtraction converts (smaller than a store per case).
constexpr uint8_t kFirstPlainCall = ins::kMoveCall - static_cast<uint8_t>(Instruction::Kind::Move);
static_assert(ins::kJumpFalseCall - kFirstPlainCall ==
                      static_cast<uint8_t>(Instruction::Kind::JumpFalse) &&
                  ins::kFreeCall - kFirstPlainCall == static_cast<uint8_t>(Instruction::Kind::Free),
              "Instruction::Kind keeps the union's order of MoveCall, JumpFalseCall, FreeCall");

#ifdef RT_FOLD_CONSTANTS
// Whether the values a kernel writes are the ones its return slot names.
// A kernel writes its schema's out arguments, which the exporter lists right
// before the return slot: the same value again, or the items of a TensorList
// of several outs (Note [Kernel call layout] in codegen/unboxing.py). A file
// that names other values there makes the kernel write a value the return
// slot does not name.
bool outs_are_return_slot(const Instruction& call) {
  const size_t count = call.args.size();
  if (count < 2) return false;
  const EValue* slot = call.args[count - 1];
  if (slot->is_tensor()) return call.args[count - 2] == slot;
  if (slot->tag() != Tag::TensorList) return false;
  const BoxedList outs = slot->to_list();
  if (outs.size + 1 > count) return false;
  for (uint32_t k = 0; k < outs.size; ++k) {
    if (call.args[count - 1 - outs.size + k] != outs.items[k]) return false;
  }
  return true;
}
#endif

// Fills in a KernelCall: its argument values and the kernel serving it.
void decode_kernel_call(fb::Reader& reader, fb::Table plan, fb::Table call, Span<EValue> values,
                        const KernelRegistry& registry, Arena& arena, Message& message,
                        Instruction* out) {
  const BoxedList args = resolve_values(reader, reader.vector(call, schema::kernel_call::kArgs, 4),
                                        false, false, values, arena);
  if (!reader.ok()) return;
  out->args = Span<EValue* const>(args.items, args.size);

  const fb::Table op = reader.table(reader.vector(plan, schema::execution_plan::kOperators, 4),
                                    reader.get<uint32_t>(call, schema::kernel_call::kOpIndex));
  // "aten::add" + "out" -> "aten::add.out"
  const fb::Vector base = reader.vector(op, schema::op::kName, 1);
  const fb::Vector overload = reader.vector(op, schema::op::kOverload, 1);
  char name[128];
  if (base.size == 0 || base.size + overload.size + 1 >= sizeof name) {
    return reader.invalid("kernel call's operator is malformed");
  }
  snprintf(name, sizeof name, "%.*s%s%.*s", static_cast<int>(base.size),
           reinterpret_cast<const char*>(reader.bytes(base)), overload.size > 0 ? "." : "",
           static_cast<int>(overload.size), reinterpret_cast<const char*>(reader.bytes(overload)));
  char key[kKernelKeyCapacity];
  const bool key_complete = make_kernel_key(out->args, key, sizeof key);
  // An incomplete key cannot equal a registered one; the default may still serve.
  const Kernel* kernel = registry.find(name, key_complete ? key : nullptr);
  if (kernel == nullptr) {
    snprintf(message.text, sizeof message.text, "operator %s is not in this runner (kernel key %s)",
             name, key);
    return reader.fail(Error::OperatorMissing, message.text);
  }
  if (!check_kernel_call(*kernel, out->args, message))
    return reader.fail(Error::InvalidProgram, message.text);
  out->fn = kernel->fn;
#ifdef RT_PROFILE_CALLS
  out->op = kernel->name;  // Note [Call profile]
#endif
#ifdef RT_FOLD_CONSTANTS
  // Note [Constant folding at load] in fold.h: the calls that may be folded,
  // "aten::" + base + ".out" or "..._out", so the name is longer than 10.
  const size_t length = strlen(name);
  // ExecuTorch's quantized_decomposed kernels follow the same convention.
  const bool aten = strncmp(name, "aten::", 6) == 0;
  const bool quantized = strncmp(name, "quantized_decomposed::", 22) == 0;
  // Set here, once, for every load-time pass (Note [Quantized calls at load] reads it
  // before folding does): a file that lists other values than its return slot as the outs
  // makes the kernel write values a pass would not know of.
  out->pure_out = length > 10 && (aten || quantized) && strcmp(name + length - 3, "out") == 0 &&
                  (name[length - 4] == '.' || name[length - 4] == '_') &&
                  outs_are_return_slot(*out);
#endif
#ifdef RT_PREPARE
  out->may_prepare = prepares(name);
#endif
}

// Delegates are not supported: the message names the backend the program wants.
void reject_delegate_call(fb::Reader& reader, fb::Table plan, fb::Table call, Message& message) {
  const fb::Table delegate =
      reader.table(reader.vector(plan, schema::execution_plan::kDelegates, 4),
                   reader.get<uint32_t>(call, schema::delegate_call::kDelegateIndex));
  const fb::Vector id = reader.vector(delegate, schema::backend_delegate::kId, 1);
  snprintf(message.text, sizeof message.text, "backend %.*s is not available",
           static_cast<int>(id.size > 64 ? 64 : id.size),
           reinterpret_cast<const char*>(reader.bytes(id)));
  reader.fail(Error::NotSupported, message.text);
}

// Note [A move keeps a value's kind]
// Every KernelCall is checked at load against the kinds of its argument
// values (check_kernel_call). A MoveCall copies a whole value, kind included,
// at run time: moving an Int over a value a kernel takes as a Tensor would
// have the kernel read an integer as a pointer. So a move between values of
// different kinds is refused at load. The exporter only moves a value over
// one of its own kind (a branch's result over the cond's output, both
// Tensors, in tests/conformance/programs/prim_*.pte). The message is short,
// "move between kinds": add_mul's runner has no .rodata bytes to spare.

}  // namespace

Span<Instruction> decode_instructions(fb::Reader& reader, fb::Table plan, Span<EValue> values,
                                      const KernelRegistry& registry, Arena& arena,
                                      Message& message) {
  reader.reading("instruction is malformed");
  // Like ExecuTorch, only chain 0 runs.
  const fb::Vector chains = reader.vector(plan, schema::execution_plan::kChains, 4);
  const fb::Vector entries =
      reader.vector(reader.table(chains, 0), schema::chain::kInstructions, 4);
  const uint32_t count = entries.size;
  Instruction* instructions = arena.allocate_array<Instruction>(count);
  if (instructions == nullptr)
    reader.fail(Error::OutOfMemory, "out of memory while loading the method");
  for (uint32_t i = 0; reader.ok() && i < count; ++i) {
    const fb::Table entry = reader.table(entries, i);
    const fb::Table call = reader.table(entry, ins::kArgs);
    Instruction& out = instructions[i];
    // Slot 0 of every call table is an int index (operator, delegate, value
    // or jump condition); slot 1 is one for MoveCall and JumpFalseCall.
    // Negative indices read as huge unsigned ones and fail the range checks.
    out.first = reader.get<uint32_t>(call, 0);
    out.second = reader.get<uint32_t>(call, 1);
    uint32_t value_limit = values.size();
    const uint8_t type = reader.get<uint8_t>(entry, ins::kArgsType);
    switch (type) {
      case ins::kKernelCall:  // out.kind is already Kernel: the arena's memory is zero-filled
        decode_kernel_call(reader, plan, call, values, registry, arena, message, &out);
        continue;
      case ins::kDelegateCall:
        reject_delegate_call(reader, plan, call, message);
        continue;
      case ins::kMoveCall:
        break;
      case ins::kJumpFalseCall:
        value_limit = count + 1;  // `second` is an instruction; count itself means "the end"
        break;
      case ins::kFreeCall:
        out.second = 0;
        break;
      default:
        reader.invalid("unknown instruction type");
        continue;
    }
    out.kind = static_cast<Instruction::Kind>(type - kFirstPlainCall);
    // One failing call for both checks: add_mul's runner has no code bytes to
    // spare for a second (Note [A move keeps a value's kind]).
    const char* problem = "instruction index is out of range";
    if (call.present() && out.first < values.size() && out.second < value_limit) {
      const bool kind_changes = out.kind == Instruction::Kind::Move &&
                                values[out.first].tag() != values[out.second].tag();
      problem = kind_changes ? "move between kinds" : nullptr;
    }
    if (problem != nullptr) reader.invalid(problem);
  }
  return reader.ok() ? Span<Instruction>(instructions, count) : Span<Instruction>();
}

}  // namespace rt
