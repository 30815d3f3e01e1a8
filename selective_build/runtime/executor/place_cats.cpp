#include "runtime/executor/place_cats.h"

#if defined(RT_FUSE_CALLS) && defined(RT_PLACE_CATS)

#include <cstdint>

#include "runtime/executor/call_graph.h"

namespace rt {
namespace {

constexpr const char* kNames[] = {"", "aten::cat.out"};
constexpr uint8_t kCat = 1;
// The cats whose out's planned memory is checked, each against every value: bounded work
// (the others get memory of their own).
constexpr size_t kMaxChecks = 256;

// Whether `t` has static sizes and the contiguous dim order.
bool plain(const Tensor& t) { return !t.is_dynamic() && t.is_contiguous(); }

// Whether the inputs of a cat along `dim` lie in its out `out` one after another: Note
// [Cats in place].
bool runs_of_out(const BoxedList& items, int64_t dim, const Tensor& out) {
  if (!plain(out)) return false;
  for (int64_t d = 0; d < dim; ++d) {
    if (out.size(d) != 1) return false;
  }
  int64_t along = 0;
  for (uint32_t k = 0; k < items.size; ++k) {
    if (!items.items[k]->is_tensor()) return false;
    const Tensor& t = items.items[k]->to_tensor();
    if (!plain(t) || t.dtype() != out.dtype() || t.dim() != out.dim()) return false;
    for (int64_t d = 0; d < out.dim(); ++d) {
      if (d != dim && t.size(d) != out.size(d)) return false;
    }
    along += t.size(dim);
  }
  return along == out.size(dim);
}

// The first and last instructions referring to each value (an argument, an item of a list
// argument, a move's source or destination; the method's inputs from the first, its outputs
// to the last), or CallGraph::kNone for a value nothing refers to.
void references(Span<Instruction> instructions, const CallGraph& graph, BoxedList inputs,
                BoxedList outputs, uint32_t* first, uint32_t* last) {
  auto refer = [&](const EValue* value, uint32_t pc) {
    if (!graph.owned(value)) return;
    const size_t at = graph.at(value);
    if (first[at] == CallGraph::kNone) first[at] = pc;
    last[at] = pc;
  };
  for (uint32_t k = 0; k < inputs.size; ++k) refer(inputs.items[k], 0);
  for (uint32_t pc = 0; pc < instructions.size(); ++pc) {
    const Instruction& call = instructions[pc];
    if (call.kind == Instruction::Kind::Move) {
      refer(&graph.values[call.first], pc);
      refer(&graph.values[call.second], pc);
    }
    if (call.kind != Instruction::Kind::Kernel && call.kind != Instruction::Kind::Folded) continue;
    for (const EValue* arg : call.args) {
      refer(arg, pc);
      if (!is_list_value(arg)) continue;
      const BoxedList items = arg->to_list();
      for (uint32_t k = 0; k < items.size; ++k) refer(items.items[k], pc);
    }
  }
  const uint32_t end = static_cast<uint32_t>(instructions.size());
  for (uint32_t k = 0; k < outputs.size; ++k) refer(outputs.items[k], end);
}

// Whether the cat's out may keep its planned memory: no other tensor sharing any of it is
// referred to while the cat's inputs are written, from the first of their producers to the
// cat at `pc` (Note [Cats in place]).
bool memory_free_until(const EValue* out, const BoxedList& items, uint32_t pc,
                       const CallGraph& graph, const uint32_t* first, const uint32_t* last) {
  uint32_t from = pc;
  for (uint32_t k = 0; k < items.size; ++k) {
    const uint32_t producer = graph.producer[graph.at(items.items[k])];
    from = producer < from ? producer : from;
  }
  const Tensor& target = out->to_tensor();
  for (const EValue& value : graph.values) {
    if (&value == out || !value.is_tensor() || first[graph.at(&value)] == CallGraph::kNone ||
        !overlaps(target, value.to_tensor()))
      continue;
    if (first[graph.at(&value)] <= pc && last[graph.at(&value)] >= from) return false;
  }
  return true;
}

// Whether the cat at `pc` may be placed: Note [Cats in place].
bool placeable(const Instruction& cat, uint32_t pc, const CallGraph& graph, const uint32_t* first,
               const BoxedList& method_inputs) {
  const Span<EValue* const> a = cat.args;
  if (a.size() != 4 || a[2] != a[3] || !a[2]->is_tensor() || a[0]->tag() != Tag::TensorList ||
      a[1]->tag() != Tag::Int || !graph.owned(a[0]) || !graph.owned(a[2]))
    return false;
  const Tensor& out = a[2]->to_tensor();
  int64_t dim = a[1]->to_int();
  if (dim < 0) dim += out.dim();
  const BoxedList items = a[0]->to_list();
  if (dim < 0 || dim >= out.dim() || items.size == 0 || graph.uses[graph.at(a[0])] != 1 ||
      first[graph.at(a[2])] != pc || !runs_of_out(items, dim, out))
    return false;
  for (uint32_t k = 0; k < method_inputs.size; ++k) {
    if (method_inputs.items[k] == a[2]) return false;
  }
  // Three uses: its producer's out and return slot, the list once (an input listed twice
  // has four); and no view over its bytes, which would read them where they no longer are
  // (Note [Aliases in planned memory]).
  for (uint32_t k = 0; k < items.size; ++k) {
    const EValue* item = items.items[k];
    if (!graph.owned(item) || graph.uses[graph.at(item)] != 3 || graph.aliased(item)) return false;
    const uint32_t producer = graph.producer[graph.at(item)];
    if (producer == CallGraph::kNone || producer >= pc) return false;
  }
  return true;
}

}  // namespace

void placed_cat(KernelContext&, Span<EValue* const>) {}

Status place_cats(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                  BoxedList outputs, const Program& program, const KernelRegistry& registry,
                  Arena& arena) {
  const Operators ops(registry, kNames, 2);
  bool any = false;
  for (const Instruction& call : instructions) any = any || ops.of(call) == kCat;
  if (!any) return Status();
  const Status out_of_memory(Error::OutOfMemory, "out of memory while loading the method");
  CallGraph graph(instructions, values, program);
  uint32_t* first = arena.allocate_array<uint32_t>(2 * values.size() + 1);
  if (first == nullptr || !graph.allocate(arena)) return out_of_memory;
  uint32_t* last = first + values.size();
  for (size_t i = 0; i < 2 * values.size(); ++i) first[i] = CallGraph::kNone;
  size_t cap = 0;  // as Note [Fusion at load]'s: the method's non-constant tensors, unplanned
  for (EValue& value : values) {
    if (value.is_tensor() && !program.holds(value.to_tensor().data()))
      cap += value.to_tensor().capacity();
  }
  Status status;
  if (graph.count(inputs, outputs)) {
    references(instructions, graph, inputs, outputs, first, last);
    size_t checks = kMaxChecks;
    for (uint32_t pc = 0; pc < instructions.size() && status.ok(); ++pc) {
      Instruction& cat = instructions[pc];
      if (ops.of(cat) != kCat || !placeable(cat, pc, graph, first, inputs)) continue;
      Tensor& out = cat.args[2]->to_tensor();
      const BoxedList items = cat.args[0]->to_list();
      const bool stays =
          checks > 0 && memory_free_until(cat.args[2], items, pc, graph, first, last);
      checks -= checks > 0 ? 1 : 0;
      if (!stays && out.capacity() > cap) continue;
      uint8_t* data = static_cast<uint8_t*>(stays ? out.data() : arena.allocate(out.capacity()));
      EValue* bytes = arena.allocate_array<EValue>(1);
      EValue** args = arena.allocate_array<EValue*>(1);
      if (data == nullptr || bytes == nullptr || args == nullptr) {
        status = out_of_memory;
        break;
      }
      if (!stays) cap -= out.capacity();
      out.set_data(data);
      for (uint32_t k = 0; k < items.size; ++k) {
        Tensor& item = items.items[k]->to_tensor();
        item.set_data(data);
        data += item.nbytes();
      }
      *bytes = EValue::from_int(static_cast<int64_t>(stays ? 0 : out.capacity()));
      args[0] = bytes;
      cat.kind = Instruction::Kind::Free;
      cat.fn = placed_cat;
      cat.args = Span<EValue* const>(args, 1);
    }
  }
  graph.release(arena);
  arena.release(first);
  return status;
}

}  // namespace rt

#endif  // RT_FUSE_CALLS && RT_PLACE_CATS
