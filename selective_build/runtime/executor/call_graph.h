#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/executor/instructions.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

namespace rt {

// Note [Call graph at load]
// The load-time rewrites (Note [Quantized calls at load], Note [Fusion at load]) replace a
// chain of calls by one only where no other instruction reads or writes the chain's
// intermediate values. CallGraph is what both ask: who refers to each value (calls, moves,
// the method's inputs and outputs), who may write it, whether it is the out of a call
// folded at load, which kernel call writes it as its out; and Operators names a call's
// operator from its kernel function. Counted once per pass, before it rewrites anything
// (a rewrite only frees calls, so the counts stay an upper bound). The functions are
// inline: a runner with both passes links one copy.

inline bool is_list_value(const EValue* value) {
  return value->tag() == Tag::TensorList || value->tag() == Tag::OptionalTensorList ||
         value->tag() == Tag::IntList;
}

// Whether the memory of `a` and `b` (their whole capacity) overlaps.
inline bool overlaps(const Tensor& a, const Tensor& b) {
  const uint8_t* x = static_cast<const uint8_t*>(a.data());
  const uint8_t* y = static_cast<const uint8_t*>(b.data());
  return x < y + b.capacity() && y < x + a.capacity();
}

// The operator of a call among a pass's `names` (index 0 is "no operator of ours"): the
// registry's entries of each name (a default and keyed kernels) lie together in its sorted
// table.
class Operators {
 public:
  static constexpr size_t kMax = 16;

  Operators(const KernelRegistry& registry, const char* const* names, size_t count)
      : count_ops_(count < kMax ? count : kMax) {
    const Span<const Kernel> kernels = registry.kernels();
    for (size_t k = 0; k < kernels.size(); ++k) {
      for (size_t op = 1; op < count_ops_; ++op) {
        if (strcmp(kernels[k].name, names[op]) != 0) continue;
        if (count_[op]++ == 0) first_[op] = &kernels[k];
      }
    }
  }

  uint8_t of(const Instruction& call) const {
    if (call.kind != Instruction::Kind::Kernel) return 0;
    for (size_t op = 1; op < count_ops_; ++op) {
      for (size_t k = 0; k < count_[op]; ++k) {
        if (first_[op][k].fn == call.fn) return static_cast<uint8_t>(op);
      }
    }
    return 0;
  }

 private:
  size_t count_ops_;
  const Kernel* first_[kMax] = {};
  size_t count_[kMax] = {};
};

struct CallGraph {
  static constexpr uint32_t kNone = UINT32_MAX;

  Span<Instruction> calls;
  Span<EValue> values;
  const Program& program;
  uint8_t* uses = nullptr;       // per value: references, saturating at 255
  uint8_t* written = nullptr;    // per value: 1 if a kernel call, a move or the caller may write it
  uint8_t* folded = nullptr;     // per value: 1 if the out of a call folded at load
  uint32_t* producer = nullptr;  // per value: the kernel call whose out it is, or kNone
  uint32_t* first = nullptr;     // per value: the first instruction that refers to it, or kNone

  CallGraph(Span<Instruction> calls_, Span<EValue> values_, const Program& program_)
      : calls(calls_), values(values_), program(program_) {}

  // Takes the per-value arrays from `arena`; false when out of memory.
  bool allocate(Arena& arena) {
    const size_t n = values.size();
    uses = arena.allocate_array<uint8_t>(3 * n + 1);
    producer = arena.allocate_array<uint32_t>(2 * n + 2);
    if (uses == nullptr || producer == nullptr) return false;
    written = uses + n;
    folded = uses + 2 * n;
    first = producer + n + 1;
    for (size_t i = 0; i < n; ++i) producer[i] = first[i] = kNone;
    return true;
  }
  void release(Arena& arena) {
    arena.release(uses);
    arena.release(producer);
  }

  size_t at(const EValue* value) const { return static_cast<size_t>(value - values.data()); }
  // Note [Aliases in planned memory]
  // ExecuTorch's memory planning may turn a view (a flatten, a reshape) into a second tensor
  // over the same bytes with no instruction between the two: the view is read at run time
  // and written by nobody. A pass that changes how a value's bytes are laid out (Note
  // [Channels last]), stops writing them (Note [Fusion at load], Note [Unread outs], Note
  // [Quantized calls at load]) or moves them (Note [Cats in place]) must leave a value that
  // such a tensor reads: aliased(value) says whether one does. Planned memory is reused by
  // tensors that live at other times, so a view reads `value` only if `value` was written
  // before the view's first read and nothing covered the view's bytes in between (an
  // overlap alone took EfficientNet-B0's activations out of channels last). A ViT's patch
  // convolution, flattened and transposed into tokens, is such a value (its out went
  // channels last, and the tokens were read in the wrong order). Call after count().
  bool aliased(const EValue* value) const {
    if (!value->is_tensor() || !owned(value) || first[at(value)] == kNone) return false;
    const Tensor& t = value->to_tensor();
    const uint32_t written_at = first[at(value)];
    for (const EValue& other : values) {
      const size_t v = at(&other);
      if (&other == value || !other.is_tensor() || uses[v] == 0 || written[v] != 0 ||
          folded[v] != 0)
        continue;
      const Tensor& view = other.to_tensor();
      if (view.data() == nullptr || program.holds(view.data()) || !overlaps(t, view)) continue;
      // The view reads what was last written over all its bytes before it is first read
      // (the method's outputs: after every instruction). Planned memory is reused, so
      // `value` is that only if it came first and nothing covered the view's bytes since.
      const uint32_t read = first[v] == kNone ? static_cast<uint32_t>(calls.size()) : first[v];
      if (written_at >= read) continue;
      bool covered = false;
      for (const EValue& later : values) {
        const size_t w = at(&later);
        if (&later == value || !later.is_tensor() || written[w] == 0 || first[w] == kNone ||
            first[w] <= written_at || first[w] >= read)
          continue;
        const uint8_t* from = static_cast<const uint8_t*>(later.to_tensor().data());
        const uint8_t* to = static_cast<const uint8_t*>(view.data());
        covered = from != nullptr && from <= to &&
                  from + later.to_tensor().capacity() >= to + view.capacity();
        if (covered) break;
      }
      if (!covered) return true;
    }
    return false;
  }
  // Values a rewrite made live outside the method's table: never counted.
  bool owned(const EValue* value) const {
    return value >= values.data() && value < values.data() + values.size();
  }
  void use(const EValue* value) {
    if (owned(value) && uses[at(value)] < UINT8_MAX) ++uses[at(value)];
  }
  void write(const EValue* value) {
    if (!owned(value)) return;
    written[at(value)] = 1;
    if (!is_list_value(value)) return;
    const BoxedList items = value->to_list();
    for (uint32_t k = 0; k < items.size; ++k) write(items.items[k]);
  }

  // Counts the method; false if it has a jump (then a pass rewrites nothing).
  bool count(BoxedList inputs, BoxedList outputs) {
    for (uint32_t k = 0; k < inputs.size; ++k) use(inputs.items[k]), write(inputs.items[k]);
    for (uint32_t k = 0; k < outputs.size; ++k) use(outputs.items[k]);
    for (size_t pc = 0; pc < calls.size(); ++pc) {
      const Instruction& call = calls[pc];
      switch (call.kind) {
        case Instruction::Kind::JumpFalse:
          return false;
        case Instruction::Kind::Move:
          use(&values[call.first]), use(&values[call.second]), write(&values[call.second]);
          refer(&values[call.first], static_cast<uint32_t>(pc));
          refer(&values[call.second], static_cast<uint32_t>(pc));
          break;
        case Instruction::Kind::Kernel:
        case Instruction::Kind::Folded:
          count_call(call, static_cast<uint32_t>(pc));
          break;
        case Instruction::Kind::Free:
          break;
      }
    }
    return true;
  }

  // A tensor of `dtype` that holds the same bytes on every run: held in the program file
  // or folded at load, and written by no call and no caller.
  bool constant(const EValue* value, ScalarType dtype) const {
    if (!value->is_tensor() || value->to_tensor().dtype() != dtype) return false;
    if (!owned(value)) return program.holds(value->to_tensor().data());
    return written[at(value)] == 0 &&
           (folded[at(value)] != 0 || program.holds(value->to_tensor().data()));
  }

  // The next instruction after `pc` that runs (no-ops skipped), or the end.
  size_t next_run(size_t pc) const {
    ++pc;
    while (pc < calls.size() && (calls[pc].kind == Instruction::Kind::Free ||
                                 calls[pc].kind == Instruction::Kind::Folded))
      ++pc;
    return pc;
  }

 private:
  void refer(const EValue* value, uint32_t pc) {
    if (owned(value) && first[at(value)] == kNone) first[at(value)] = pc;
  }

  void count_call(const Instruction& call, uint32_t pc) {
    const size_t n = call.args.size();
    for (size_t a = 0; a < n; ++a) {
      const EValue* arg = call.args[a];
      use(arg);
      refer(arg, pc);
      if (is_list_value(arg)) {
        const BoxedList items = arg->to_list();
        for (uint32_t k = 0; k < items.size; ++k) use(items.items[k]), refer(items.items[k], pc);
      }
      const bool last = a + 1 == n;
      if (call.kind == Instruction::Kind::Folded) {
        if (last && owned(arg)) folded[at(arg)] = 1;
      } else if (last || !call.pure_out) {
        write(arg);
      }
    }
    // An out written as the exporter writes a call: listed again as the return slot.
    if (call.kind == Instruction::Kind::Kernel && call.pure_out && n >= 2 &&
        call.args[n - 1] == call.args[n - 2] && owned(call.args[n - 1]))
      producer[at(call.args[n - 1])] = pc;
  }
};

}  // namespace rt
