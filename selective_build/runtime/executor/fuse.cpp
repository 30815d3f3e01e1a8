#include "runtime/executor/fuse.h"

#ifdef RT_FUSE_CALLS

#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/executor/call_graph.h"
#include "runtime/executor/place_cats.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/unread_outs.h"

namespace rt {
namespace {

enum Op : uint8_t {
  kOther,
  kConvolution,
  kAddmm,
  kMm,
  kBatchNorm,
  kRelu,
  kHardtanh,
  kClamp,
  kHardswish,
  kSigmoid,
  kMul,
  kMaxPool,
  kOps
};

constexpr const char* kNames[kOps] = {
    "",
    "aten::convolution.out",
    "aten::addmm.out",
    "aten::mm.out",
    "aten::_native_batch_norm_legit_no_training.out",
    "aten::relu.out",
    "aten::hardtanh.out",
    "aten::clamp.out",
    "aten::hardswish.out",
    "aten::sigmoid.out",
    "aten::mul.out",
    "aten::max_pool2d_with_indices.out",
};

bool is_float_tensor(const EValue* value) {
  return value->is_tensor() && value->to_tensor().dtype() == ScalarType::Float;
}

// An out that only its producer (out and return slot) and the next call read, and no view
// over its bytes (Note [Aliases in planned memory]): a fused chain never writes it.
bool intermediate(const CallGraph& graph, const EValue* value) {
  return is_float_tensor(value) && graph.owned(value) && graph.uses[graph.at(value)] == 3 &&
         !graph.aliased(value);
}

// The out of a call written as the exporter writes one: listed again as its return slot.
EValue* single_out(const Instruction& call) {
  const size_t count = call.args.size();
  if (count < 2 || call.args[count - 1] != call.args[count - 2]) return nullptr;
  return is_float_tensor(call.args[count - 1]) ? call.args[count - 1] : nullptr;
}

float bound(const EValue* scalar, float missing, bool* ok) {
  if (scalar->tag() == Tag::Int) return static_cast<float>(scalar->to_int());
  if (scalar->tag() == Tag::Double) return static_cast<float>(scalar->to_double());
  *ok = *ok && scalar->is_none();
  return missing;
}

// The epilogue of `call` if it is an activation of `in` alone.
bool activation_of(Op op, const Instruction& call, const CallGraph& graph, const EValue* in,
                   Epilogue* e) {
  const size_t count = call.args.size();
  if (single_out(call) == nullptr || count == 0 || call.args[0] != in || !intermediate(graph, in))
    return false;
  bool ok = true;
  const float inf = HUGE_VALF;
  if (op == kRelu && count == 3) {
    *e = Epilogue{EpilogueKind::Relu, 0.0f, 0.0f};
  } else if (op == kSigmoid && count == 3) {
    *e = Epilogue{EpilogueKind::Sigmoid, 0.0f, 0.0f};
  } else if (op == kHardswish && count == 3) {
    *e = Epilogue{EpilogueKind::Hardswish, 0.0f, 0.0f};
  } else if ((op == kHardtanh || op == kClamp) && count == 5) {
    // hardtanh's bounds are Scalars, clamp's optional ones (not both absent: the kernel
    // fails such a call, and so must the program).
    *e = Epilogue{EpilogueKind::Clamp, bound(call.args[1], -inf, &ok),
                  bound(call.args[2], inf, &ok)};
    const bool absent[2] = {call.args[1]->is_none(), call.args[2]->is_none()};
    ok = ok && (op == kClamp ? !(absent[0] && absent[1]) : !absent[0] && !absent[1]);
  } else {
    return false;
  }
  return ok;
}

// Whether `sigmoid` of `in` then `mul` of `in` and that is SiLU as the exporter writes it:
// `in` read by its producer, the sigmoid and the mul alone; the sigmoid's out by the mul.
bool silu_of(const Instruction& sigmoid, const Instruction& mul, const CallGraph& graph,
             const EValue* in) {
  const EValue* s = single_out(sigmoid);
  if (s == nullptr || sigmoid.args.size() != 3 || sigmoid.args[0] != in) return false;
  if (single_out(mul) == nullptr || mul.args.size() != 4) return false;
  const bool operands =
      (mul.args[0] == in && mul.args[1] == s) || (mul.args[0] == s && mul.args[1] == in);
  return operands && is_float_tensor(in) && graph.uses[graph.at(in)] == 4 &&
         graph.uses[graph.at(s)] == 3 && !graph.aliased(in) && !graph.aliased(s);
}

// Whether a batch norm call of `conv`'s out can be folded into it.
bool batch_norm_folds(const Instruction& conv, const Instruction& bn, const CallGraph& graph) {
  const Span<EValue*const> c = conv.args, b = bn.args;
  if (b.size() != 11 || b[0] != c[9] || !intermediate(graph, c[9])) return false;
  if (!is_float_tensor(b[7]) || b[10]->tag() != Tag::TensorList) return false;
  const BoxedList outs = b[10]->to_list();
  if (outs.size != 3 || outs.items[0] != b[7] || outs.items[1] != b[8] || outs.items[2] != b[9])
    return false;
  if (graph.uses[graph.at(b[8])] != 2 || graph.uses[graph.at(b[9])] != 2 ||
      graph.uses[graph.at(b[10])] != 1 || graph.aliased(b[8]) || graph.aliased(b[9]))
    return false;
  if (b[6]->tag() != Tag::Double || !graph.constant(c[1], ScalarType::Float) ||
      c[1]->to_tensor().dim() < 1 || c[1]->to_tensor().dim_order()[0] != 0)
    return false;
  const int64_t channels = c[1]->to_tensor().size(0);
  // The conv's bias, the norm's weight and bias (each may be absent), mean and variance.
  const EValue* params[] = {c[2], b[1], b[2], b[3], b[4]};
  for (size_t p = 0; p < 5; ++p) {
    if (p < 3 && params[p]->is_none()) continue;
    if (!graph.constant(params[p], ScalarType::Float)) return false;
    const Tensor& t = params[p]->to_tensor();
    if (t.dim() != 1 || t.size(0) != channels) return false;
  }
  return true;
}

float entry(const EValue* param, int64_t channel, float missing) {
  if (param->is_none()) return missing;
  const Tensor& t = param->to_tensor();
  return t.data_as<const float>()[channel * t.stride(0)];
}

class Fuser {
 public:
  Fuser(CallGraph& graph, Arena& arena, size_t own_memory_cap)
      : graph_(graph), arena_(arena), cap_(own_memory_cap) {}

  // Rewrites `call` (`inputs` values before its out) [-> `bn`] [-> `acts` with `e`] into a
  // call of `fused`: Note [Fusion at load].
  Status rewrite(Instruction& call, size_t inputs, OpFunction fused, Instruction* bn,
                 Instruction* const acts[2], const Epilogue& e) {
    Instruction* last = acts[1] != nullptr ? acts[1] : acts[0];
    EValue* out = last != nullptr ? single_out(*last) : bn->args[7];
    Tensor& target = out->to_tensor();
    bool own_memory = false;
    for (size_t a = 0; a < inputs; ++a) {
      if (call.args[a]->is_tensor() && overlaps(target, call.args[a]->to_tensor()))
        own_memory = true;
    }
    if (own_memory && target.capacity() > cap_) return Status();  // left as it is
    const size_t count = inputs + kEpilogueValues + 2;
    EValue** args = arena_.allocate_array<EValue*>(count);
    EValue* made = arena_.allocate_array<EValue>(2 + kEpilogueValues);
    if (args == nullptr || made == nullptr) return out_of_memory();
    for (size_t a = 0; a < inputs; ++a) args[a] = call.args[a];
    size_t bytes = 0;
    if (bn != nullptr) {
      Status status = fold_batch_norm(call.args, bn->args, made, made + 1, &bytes);
      if (!status.ok()) return status;
      args[1] = made;
      args[2] = made + 1;
    }
    for (size_t k = 0; k < kEpilogueValues; ++k) args[inputs + k] = made + 2 + k;
    args[count - 2] = args[count - 1] = out;
    if (own_memory) {
      void* data = arena_.allocate(target.capacity());
      if (data == nullptr) return out_of_memory();
      target.set_data(data);
      cap_ -= target.capacity();
      bytes += target.capacity();
    }
    made[2] = EValue::from_int(static_cast<int64_t>(e.kind));
    made[3] = EValue::from_double(e.lo);
    made[4] = EValue::from_double(e.hi);
    made[5] = EValue::from_int(static_cast<int64_t>(bytes));
    call.fn = fused;
    call.args = Span<EValue* const>(args, count);
    if (bn != nullptr) bn->kind = Instruction::Kind::Free;
    for (size_t a = 0; a < 2; ++a) {
      if (acts[a] != nullptr) acts[a]->kind = Instruction::Kind::Free;
    }
    return Status();
  }

 private:
  static Status out_of_memory() {
    return Status(Error::OutOfMemory, "out of memory while loading the method");
  }

  // weight' = weight * scale, bias' = bias * scale + shift per output channel, with scale and
  // shift as the batch norm kernel computes them (in float).
  Status fold_batch_norm(Span<EValue* const> c, Span<EValue* const> b, EValue* weight, EValue* bias,
                         size_t* bytes) {
    const Tensor& w = c[1]->to_tensor();
    const Tensor& mean = b[3]->to_tensor();
    const int64_t channels = w.size(0), per_channel = w.numel() / (channels > 0 ? channels : 1);
    Tensor* tensors = arena_.allocate_array<Tensor>(2);
    float* w_data = static_cast<float*>(arena_.allocate(w.capacity()));
    float* b_data = static_cast<float*>(arena_.allocate(mean.capacity()));
    if (tensors == nullptr || w_data == nullptr || b_data == nullptr) return out_of_memory();
    const float eps = static_cast<float>(b[6]->to_double());
    const float* from = w.data_as<const float>();
    for (int64_t ch = 0; ch < channels; ++ch) {
      const float scale = entry(b[1], ch, 1.0f) / std::sqrt(entry(b[4], ch, 0.0f) + eps);
      const float shift = entry(b[2], ch, 0.0f) - entry(b[3], ch, 0.0f) * scale;
      for (int64_t k = 0; k < per_channel; ++k)
        w_data[ch * per_channel + k] = from[ch * per_channel + k] * scale;
      b_data[ch * mean.stride(0)] = entry(c[2], ch, 0.0f) * scale + shift;
    }
    tensors[0] = w;
    tensors[0].set_data(w_data);
    tensors[1] = mean;  // a Float vector of one entry per channel, as the bias is
    tensors[1].set_data(b_data);
    *weight = EValue::from_tensor(&tensors[0]);
    *bias = EValue::from_tensor(&tensors[1]);
    *bytes += w.capacity() + mean.capacity();
    return Status();
  }

  CallGraph& graph_;
  Arena& arena_;
  size_t cap_;
};

// Whether a max pool's indices are read by nothing but the call itself (its out argument and
// its return list, which nothing else refers to, and no view over their bytes): Note
// [Unread outs].
bool indices_unread(const Instruction& call, const CallGraph& graph) {
  if (call.args.size() != 9) return false;
  const EValue* indices = call.args[7];
  const EValue* list = call.args[8];
  if (!indices->is_tensor() || list->tag() != Tag::TensorList || !graph.owned(indices) ||
      !graph.owned(list))
    return false;
  const BoxedList items = list->to_list();
  return items.size == 2 && items.items[0] == call.args[6] && items.items[1] == indices &&
         graph.uses[graph.at(indices)] == 2 && graph.uses[graph.at(list)] == 1 &&
         !graph.aliased(indices);  // Note [Aliases in planned memory]
}

// The calls with a fused entry (runtime/kernel/epilogue.h): a null entry is not linked.
struct Fusable {
  Op op;
  size_t inputs;  // values before the out
  OpFunction fused;
  bool (*accepts)(Span<EValue* const> args);
};
const Fusable kFusable[] = {
    {kConvolution, 9, fused::convolution, fused::convolution_accepts},
    {kAddmm, 5, fused::addmm, fused::addmm_accepts},
    {kMm, 2, fused::mm, fused::mm_accepts},
};

}  // namespace

Status fuse_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                  BoxedList outputs, const Program& program, const KernelRegistry& registry,
                  Arena& arena) {
  if (fused::convolution == nullptr && fused::addmm == nullptr && fused::mm == nullptr &&
      fused::max_pool2d_values == nullptr)
    return Status();
  CallGraph graph(instructions, values, program);
  if (!graph.allocate(arena))
    return Status(Error::OutOfMemory, "out of memory while loading the method");
  if (!graph.count(inputs, outputs)) {
    graph.release(arena);
    return Status();
  }
  size_t cap = 0;  // Note [Fusion at load]: the method's non-constant tensors, unplanned
  for (EValue& value : values) {
    if (value.is_tensor() && !program.holds(value.to_tensor().data()))
      cap += value.to_tensor().capacity();
  }
  const Operators ops(registry, kNames, kOps);
  Fuser fuser(graph, arena, cap);
  for (size_t i = 0; i < instructions.size(); ++i) {
    Instruction& call = instructions[i];
    const Op op = static_cast<Op>(ops.of(call));
    if (op == kMaxPool) {
      if (fused::max_pool2d_values != nullptr && indices_unread(call, graph) &&
          fused::max_pool2d_values_accepts(call.args))
        call.fn = fused::max_pool2d_values;
      continue;
    }
    const Fusable* fusable = nullptr;
    for (const Fusable& f : kFusable) {
      if (f.op == op && call.args.size() == f.inputs + 2 && f.fused != nullptr) fusable = &f;
    }
    if (fusable == nullptr || single_out(call) == nullptr || !fusable->accepts(call.args)) continue;
    Instruction* bn = nullptr;
    Instruction* acts[2] = {nullptr, nullptr};
    Epilogue e{EpilogueKind::None, 0.0f, 0.0f};
    const EValue* out = call.args[fusable->inputs];
    size_t next = graph.next_run(i);
    if (op == kConvolution && next < instructions.size() &&
        ops.of(instructions[next]) == kBatchNorm &&
        batch_norm_folds(call, instructions[next], graph)) {
      bn = &instructions[next];
      out = bn->args[7];
      next = graph.next_run(next);
    }
    const size_t after = next < instructions.size() ? graph.next_run(next) : next;
    if (after < instructions.size() && ops.of(instructions[next]) == kSigmoid &&
        ops.of(instructions[after]) == kMul &&
        silu_of(instructions[next], instructions[after], graph, out)) {
      e = Epilogue{EpilogueKind::Silu, 0.0f, 0.0f};
      acts[0] = &instructions[next];
      acts[1] = &instructions[after];
    } else if (next < instructions.size() &&
               activation_of(static_cast<Op>(ops.of(instructions[next])), instructions[next], graph,
                             out, &e)) {
      acts[0] = &instructions[next];
    }
    if (bn == nullptr && acts[0] == nullptr) continue;
    const Status status = fuser.rewrite(call, fusable->inputs, fusable->fused, bn, acts, e);
    if (!status.ok()) return status;
  }
  graph.release(arena);
  return Status();
}

FusionStats fusion_stats(Span<Instruction> instructions) {
  FusionStats stats{0, 0};
  for (const Instruction& call : instructions) {
#ifdef RT_PLACE_CATS
    // A cat placed in memory (Note [Cats in place]): the memory its out took.
    if (call.kind == Instruction::Kind::Free && call.fn == placed_cat) {
      ++stats.chains;
      stats.bytes += static_cast<size_t>(call.args[0]->to_int());
    }
#endif
    // A max pool without its indices (Note [Unread outs]) counts as a call, taking no memory.
    if (call.kind == Instruction::Kind::Kernel && fused::max_pool2d_values != nullptr &&
        call.fn == fused::max_pool2d_values)
      ++stats.chains;
    for (const Fusable& f : kFusable) {
      if (call.kind != Instruction::Kind::Kernel || f.fused == nullptr || call.fn != f.fused)
        continue;
      ++stats.chains;
      stats.bytes += static_cast<size_t>(call.args[f.inputs + kEpilogueValues - 1]->to_int());
    }
  }
  return stats;
}

}  // namespace rt

#endif  // RT_FUSE_CALLS
