#include "runtime/executor/prepare.h"

#include <cstdint>

namespace rt {
namespace {

// Bit a for each constant tensor argument a of the call (the first 64), 0 when none is.
uint64_t constant_tensor_args(const Instruction& call, const ConstantValues& constants) {
  uint64_t mask = 0;
  const size_t count = call.args.size() < 64 ? call.args.size() : 64;
  for (size_t a = 0; a < count; ++a) {
    if (call.args[a]->is_tensor() && constants.constant(call.args[a])) mask |= uint64_t{1} << a;
  }
  return mask;
}

}  // namespace

Status prepare_calls(Span<Instruction> instructions, const ConstantValues& constants, Arena& arena,
                     KernelContext& context, size_t* bytes) {
  for (Instruction& call : instructions) {
    if (call.kind != Instruction::Kind::Kernel || !call.may_prepare) continue;
    const uint64_t mask = constant_tensor_args(call, constants);
    if (mask == 0) continue;
    context.clear();
    context.begin_preparing(&arena, mask);
    call.fn(context, call.args);
    context.end_preparing();
    if (context.failed()) return context.status();
    call.prepared = context.prepared();
    *bytes += context.prepared_bytes();
  }
  context.set_prepared(nullptr);
  return Status();
}

}  // namespace rt
