#include "runtime/executor/channels_last.h"

#ifdef RT_CHANNELS_LAST

#include <cstdint>

#include "runtime/executor/call_graph.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/unread_outs.h"

namespace rt {
namespace {

enum Op : uint8_t {
  kOther,
  kConvolution,
  kRelu,
  kHardtanh,
  kClamp,
  kSigmoid,
  kHardswish,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMaxPool,
  kAvgPool,
  kCat,
  kAdaptiveAvgPool,
  kMean,
  kOps
};

constexpr const char* kNames[kOps] = {
    "",
    "aten::convolution.out",
    "aten::relu.out",
    "aten::hardtanh.out",
    "aten::clamp.out",
    "aten::sigmoid.out",
    "aten::hardswish.out",
    "aten::add.out",
    "aten::sub.out",
    "aten::mul.out",
    "aten::div.out",
    "aten::max_pool2d_with_indices.out",
    "aten::avg_pool2d.out",
    "aten::cat.out",
    "aten::_adaptive_avg_pool2d.out",
    "aten::mean.out",
};

// How a call treats the layout of its tensors (Note [Channels last]).
enum class Role : uint8_t {
  Convolution,  // its input and out in any layout each (the weight and bias: never)
  Follow,       // every tensor with pixels in one layout, all or none (a 1-pixel one: either)
  Reduce,       // its input in any layout, its out as it is
  Other,        // every tensor as it is
};

Role role_of(const Instruction& call, const Operators& ops) {
  if (call.fn == fused::convolution) return Role::Convolution;
  if (fused::max_pool2d_values != nullptr && call.fn == fused::max_pool2d_values)
    return Role::Follow;
  switch (static_cast<Op>(ops.of(call))) {
    case kConvolution:
      // A transposed convolution runs portable's loops: its layouts stay.
      return call.args.size() == 11 && call.args[6]->tag() == Tag::Bool && !call.args[6]->to_bool()
                 ? Role::Convolution
                 : Role::Other;
    case kRelu:
    case kHardtanh:
    case kClamp:
    case kSigmoid:
    case kHardswish:
    case kAdd:
    case kSub:
    case kMul:
    case kDiv:
    case kMaxPool:
    case kAvgPool:
    case kCat:
      return Role::Follow;
    case kAdaptiveAvgPool:
    case kMean:
      return Role::Reduce;
    default:
      return Role::Other;
  }
}

// A tensor with more than one pixel: its layout matters (one of [N, C, 1, 1] is the same
// bytes either way).
bool has_pixels(const EValue* value) {
  if (!value->is_tensor()) return false;
  const Tensor& t = value->to_tensor();
  return t.dim() == 4 && static_cast<int64_t>(t.size(2)) * t.size(3) > 1;
}

// A depthwise convolution (one input channel per group): its kernel takes input and out
// channels last together, or both contiguous (Note [Channels-last depthwise]).
bool depthwise(const Instruction& call) {
  const EValue* weight = call.args[1];
  const EValue* groups = call.args[8];
  return weight->is_tensor() && weight->to_tensor().dim() == 4 &&
         weight->to_tensor().size(1) == 1 && groups->tag() == Tag::Int && groups->to_int() > 1;
}

// The values as sets (union-find, by index): the tensors one call must see in one layout
// together, each set kept (rejected) if any member is, and changed only if it reaches a
// convolution (anchored).
struct Sets {
  uint32_t* parent;
  uint8_t* rejected;
  uint8_t* anchored;

  uint32_t root(uint32_t v) const {
    while (parent[v] != v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  }
  void join(uint32_t a, uint32_t b) {
    a = root(a), b = root(b);
    if (a == b) return;
    parent[b] = a;
    rejected[a] |= rejected[b];
    anchored[a] |= anchored[b];
  }
};

// Whether `value` may change its layout at all: an activation written at run time (not the
// method's input or output, no constant, no view's bytes: Note [Aliases in planned
// memory]), 4-D with pixels and channels, static and contiguous. Who writes it is the
// calls' business (constrain).
bool candidate(const CallGraph& graph, const EValue* value, BoxedList inputs, BoxedList outputs) {
  if (!has_pixels(value) || !graph.owned(value) || graph.written[graph.at(value)] == 0)
    return false;
  const Tensor& t = value->to_tensor();
  if (t.is_dynamic() || !t.is_contiguous() || t.size(1) < 2 || graph.program.holds(t.data()))
    return false;
  for (uint32_t k = 0; k < inputs.size; ++k)
    if (inputs.items[k] == value) return false;
  for (uint32_t k = 0; k < outputs.size; ++k)
    if (outputs.items[k] == value) return false;
  return !graph.aliased(value);  // a view over its bytes reads them as exported
}

// Marks every value `call` refers to (its items of lists too) as staying.
void keep_all(const Instruction& call, const CallGraph& graph, Sets& sets) {
  for (const EValue* arg : call.args) {
    if (graph.owned(arg)) sets.rejected[sets.root(static_cast<uint32_t>(graph.at(arg)))] = 1;
    if (!is_list_value(arg)) continue;
    const BoxedList items = arg->to_list();
    for (uint32_t k = 0; k < items.size; ++k)
      if (graph.owned(items.items[k]))
        sets.rejected[sets.root(static_cast<uint32_t>(graph.at(items.items[k])))] = 1;
  }
}

// What `call` asks of its values' layouts: Note [Channels last].
void constrain(const Instruction& call, Role role, const CallGraph& graph, Sets& sets) {
  const size_t n = call.args.size();
  switch (role) {
    case Role::Other:
      keep_all(call, graph, sets);
      return;
    case Role::Convolution:
    case Role::Reduce: {
      // The input (first) and, for a convolution, the out (last) are free; anything else
      // stays, and a reduction's out with pixels too. A depthwise layer's input and out
      // are one set.
      uint32_t joined = CallGraph::kNone;
      const bool together = role == Role::Convolution && depthwise(call);
      for (size_t a = 0; a < n; ++a) {
        const EValue* arg = call.args[a];
        if (!graph.owned(arg)) continue;
        const uint32_t v = static_cast<uint32_t>(graph.at(arg));
        const bool free = a == 0 || (role == Role::Convolution && a + 2 >= n);
        if (free && has_pixels(arg)) {
          if (role == Role::Convolution) sets.anchored[sets.root(v)] = 1;
        } else {
          sets.rejected[sets.root(v)] = 1;
        }
        if (together && free) {
          if (joined == CallGraph::kNone) {
            joined = v;
          } else {
            sets.join(joined, v);
          }
        }
      }
      return;
    }
    case Role::Follow: {
      uint32_t first = CallGraph::kNone;
      for (const EValue* arg : call.args) {
        if (arg->tag() == Tag::OptionalTensorList) {
          keep_all(call, graph, sets);
          return;
        }
        // A list (max pool's outs, as its return slot) is its items.
        const bool list = arg->tag() == Tag::TensorList;
        const uint32_t items = list ? arg->to_list().size : 1;
        for (uint32_t k = 0; k < items; ++k) {
          const EValue* item = list ? arg->to_list().items[k] : arg;
          if (!has_pixels(item)) continue;
          if (!graph.owned(item)) {  // a value a rewrite made: its layout is its own
            keep_all(call, graph, sets);
            return;
          }
          const uint32_t v = static_cast<uint32_t>(graph.at(item));
          if (first == CallGraph::kNone) {
            first = v;
          } else {
            sets.join(first, v);
          }
        }
      }
      return;
    }
  }
}

}  // namespace

Status channels_last(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                     BoxedList outputs, const Program& program, const KernelRegistry& registry,
                     Arena& arena) {
  const Operators ops(registry, kNames, kOps);
  bool any = false;
  for (const Instruction& call : instructions)
    any = any || (call.kind == Instruction::Kind::Kernel &&
                  (call.fn == fused::convolution || ops.of(call) == kConvolution));
  if (!any) return Status();
  const Status out_of_memory(Error::OutOfMemory, "out of memory while loading the method");
  CallGraph graph(instructions, values, program);
  const size_t n = values.size();
  Sets sets{arena.allocate_array<uint32_t>(n + 1), nullptr, nullptr};
  uint8_t* flags = arena.allocate_array<uint8_t>(2 * n + 1);
  if (sets.parent == nullptr || flags == nullptr || !graph.allocate(arena)) return out_of_memory;
  sets.rejected = flags;
  sets.anchored = flags + n;
  if (graph.count(inputs, outputs)) {
    for (size_t v = 0; v < n; ++v) {
      sets.parent[v] = static_cast<uint32_t>(v);
      sets.rejected[v] = candidate(graph, &values[v], inputs, outputs) ? 0 : 1;
      sets.anchored[v] = 0;
    }
    for (const Instruction& call : instructions) {
      if (call.kind == Instruction::Kind::Move) {
        sets.rejected[sets.root(call.first)] = 1;
        sets.rejected[sets.root(call.second)] = 1;
      } else if (call.kind == Instruction::Kind::Kernel) {
        constrain(call, role_of(call, ops), graph, sets);
      }
    }
    static constexpr uint8_t kLast[4] = {0, 2, 3, 1};
    for (size_t v = 0; v < n; ++v) {
      const uint32_t r = sets.root(static_cast<uint32_t>(v));
      if (sets.rejected[r] != 0 || sets.anchored[r] == 0) continue;
      Tensor& t = values[v].to_tensor();
      Tensor last{};
      if (!last.init(t.dtype(), t.sizes().data(), kLast, 4, ShapeDynamism::Static).ok()) continue;
      last.set_data(t.data());
      t = last;
    }
  }
  graph.release(arena);
  arena.release(flags);
  arena.release(sets.parent);
  return Status();
}

}  // namespace rt

#endif  // RT_CHANNELS_LAST
