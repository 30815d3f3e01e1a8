#include "runtime/executor/instructions.h"

#include <cstdio>
#include <cstring>

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
                  schema::jump_false_call::kDestinationInstruction == 1 && schema::free_call::kValueIndex == 0,
              "instruction argument tables keep their indices in slots 0 and 1");

// Fills in a KernelCall: its argument values and the kernel serving it.
void decode_kernel_call(fb::Reader& reader, fb::Table plan, fb::Table call, Span<EValue> values,
                        const KernelRegistry& registry, Arena& arena, Message& message, Instruction* out) {
  const BoxedList args =
      resolve_values(reader, reader.vector(call, schema::kernel_call::kArgs, 4), false, false, values, arena);
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
    snprintf(message.text, sizeof message.text, "operator %s is not in this runner (kernel key %s)", name, key);
    return reader.fail(Error::OperatorMissing, message.text);
  }
  if (!check_kernel_call(*kernel, out->args, message)) return reader.fail(Error::InvalidProgram, message.text);
  out->fn = kernel->fn;
#ifdef RT_FOLD_CONSTANTS
  // Note [Constant folding at load] in fold.h: the calls that may be folded,
  // "aten::" + base + ".out" or "..._out", so the name is longer than 10.
  const size_t length = strlen(name);
  out->pure_out = length > 10 && strncmp(name, "aten::", 6) == 0 && strcmp(name + length - 3, "out") == 0 &&
                  (name[length - 4] == '.' || name[length - 4] == '_');
#endif
}

// Delegates are not supported: the message names the backend the program wants.
void reject_delegate_call(fb::Reader& reader, fb::Table plan, fb::Table call, Message& message) {
  const fb::Table delegate = reader.table(reader.vector(plan, schema::execution_plan::kDelegates, 4),
                                          reader.get<uint32_t>(call, schema::delegate_call::kDelegateIndex));
  const fb::Vector id = reader.vector(delegate, schema::backend_delegate::kId, 1);
  snprintf(message.text, sizeof message.text, "backend %.*s is not available",
           static_cast<int>(id.size > 64 ? 64 : id.size), reinterpret_cast<const char*>(reader.bytes(id)));
  reader.fail(Error::NotSupported, message.text);
}

}  // namespace

Span<Instruction> decode_instructions(fb::Reader& reader, fb::Table plan, Span<EValue> values,
                                            const KernelRegistry& registry, Arena& arena,
                                            Message& message) {
  reader.reading("instruction is malformed");
  // Like ExecuTorch, only chain 0 runs.
  const fb::Vector chains = reader.vector(plan, schema::execution_plan::kChains, 4);
  const fb::Vector entries = reader.vector(reader.table(chains, 0), schema::chain::kInstructions, 4);
  const uint32_t count = entries.size;
  Instruction* instructions = arena.allocate_array<Instruction>(count);
  if (instructions == nullptr) reader.fail(Error::OutOfMemory, "out of memory while loading the method");
  for (uint32_t i = 0; i < count && reader.ok(); ++i) {
    const fb::Table entry = reader.table(entries, i);
    const fb::Table call = reader.table(entry, ins::kArgs);
    Instruction& out = instructions[i];
    // Slot 0 of every call table is an int index (operator, delegate, value
    // or jump condition); slot 1 is one for MoveCall and JumpFalseCall.
    // Negative indices read as huge unsigned ones and fail the range checks.
    out.first = reader.get<uint32_t>(call, 0);
    out.second = reader.get<uint32_t>(call, 1);
    uint32_t value_limit = values.size();
    switch (reader.get<uint8_t>(entry, ins::kArgsType)) {
      case ins::kKernelCall:
        out.kind = Instruction::Kind::Kernel;
        decode_kernel_call(reader, plan, call, values, registry, arena, message, &out);
        continue;
      case ins::kDelegateCall:
        reject_delegate_call(reader, plan, call, message);
        continue;
      case ins::kMoveCall:
        out.kind = Instruction::Kind::Move;
        break;
      case ins::kJumpFalseCall:
        out.kind = Instruction::Kind::JumpFalse;
        value_limit = count + 1;  // `second` is an instruction; count itself means "the end"
        break;
      case ins::kFreeCall:
        out.kind = Instruction::Kind::Free;
        out.second = 0;
        break;
      default:
        reader.invalid("instruction has an unknown type");
        continue;
    }
    if (!call.present() || out.first >= values.size() || out.second >= value_limit) {
      reader.invalid("instruction index is out of range");
    }
  }
  return reader.ok() ? Span<Instruction>(instructions, count) : Span<Instruction>();
}

}  // namespace rt
