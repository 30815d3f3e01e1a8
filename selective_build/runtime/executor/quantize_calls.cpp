#include "runtime/executor/quantize_calls.h"

#ifdef RT_QUANT_CALLS

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/quantized/quant_util.h"
#include "runtime/executor/call_graph.h"
#include "runtime/kernel/quantized_calls.h"

namespace rt {
namespace {

enum Op : uint8_t {
  kOther,
  kQuantize,
  kDequantize,
  kDequantizeChannel,
  kPermute,
  kAddmm,
  kMm,
  kConvolution,
  kRelu,
  kHardtanh,
  kAdd,
  kOps
};

constexpr const char* kNames[kOps] = {
    "",
    "quantized_decomposed::quantize_per_tensor.out",
    "quantized_decomposed::dequantize_per_tensor.out",
    "quantized_decomposed::dequantize_per_channel.out",
    "aten::permute_copy.out",
    "aten::addmm.out",
    "aten::mm.out",
    "aten::convolution.out",
    "aten::relu.out",
    "aten::hardtanh.out",
    "aten::add.out",
};

// The calls' arguments, as the exporter writes each: the out twice at the end.
constexpr size_t kArgs[kOps] = {0, 8, 9, 10, 4, 7, 4, 11, 3, 5, 5};

constexpr uint32_t kNone = CallGraph::kNone;

// The method's graph (Note [Call graph at load]) with this pass's operators.
struct Chain : CallGraph {
  const Operators& ops;

  Chain(Span<Instruction> instructions, Span<EValue> values, const Program& program,
        const Operators& operators)
      : CallGraph(instructions, values, program), ops(operators) {}

  uint8_t op(size_t pc) const { return ops.of(calls[pc]); }

  // The call of operator `o` that alone writes `value`, a tensor of `dtype` that only it
  // (out and return slot) and one other call read, and no view over its bytes (the rewrite
  // stops writing it: Note [Aliases in planned memory]); kNone if there is none.
  uint32_t single_producer(const EValue* value, Op o, ScalarType dtype) const {
    if (!owned(value) || !value->is_tensor() || value->to_tensor().dtype() != dtype ||
        uses[at(value)] != 3 || aliased(value))
      return kNone;
    const uint32_t pc = producer[at(value)];
    if (pc == kNone || op(pc) != o || calls[pc].args.size() != kArgs[o]) return kNone;
    return pc;
  }
};

bool is_int(const EValue* value, int64_t expected) {
  return value->tag() == Tag::Int && value->to_int() == expected;
}
bool is_one(const EValue* value) {
  return is_int(value, 1) || (value->tag() == Tag::Double && value->to_double() == 1.0);
}
bool is_8bit(ScalarType dtype) { return dtype == ScalarType::Char || dtype == ScalarType::Byte; }

// Whether `zero_point` is a value of `dtype` (Char or Byte): |x - zero_point| then stays
// within 255, which keeps the int32 sums exact at the depths Note [int8 GEMM] allows.
bool zero_point_fits(int64_t zero_point, ScalarType dtype) {
  return dtype == ScalarType::Char ? zero_point >= -128 && zero_point <= 127
                                   : zero_point >= 0 && zero_point <= 255;
}

// Scalars of a per-tensor (de)quantize call: Double scale, Int zero point, range, dtype.
bool scalar_qparams(Span<EValue* const> args) {
  return args[1]->tag() == Tag::Double && args[2]->tag() == Tag::Int &&
         args[3]->tag() == Tag::Int && args[4]->tag() == Tag::Int && args[5]->tag() == Tag::Int;
}

// The weight's dequantize: per channel along dim 0 (Float scales, zero points none or all 0)
// or per tensor (zero point 0), of a Char constant (a Linear's [cols][depth], a
// convolution's 4-D weight). Sets the weight and its scales.
bool weight_of(const Chain& chain, const Instruction& call, QuantizedLayer* layer,
               float* one_scale) {
  const Span<EValue* const> a = call.args;
  if (!chain.constant(a[0], ScalarType::Char) ||
      a[0]->to_tensor().dim() != (layer->convolution ? 4 : 2))
    return false;
  const int64_t cols = a[0]->to_tensor().size(0);
  layer->weight = &a[0]->to_tensor();
  if (chain.op(&call - chain.calls.data()) == kDequantize) {
    if (!scalar_qparams(a) || a[2]->to_int() != 0) return false;
    *one_scale = static_cast<float>(a[1]->to_double());
    layer->weight_scales = one_scale;
    layer->per_channel = false;
    return true;
  }
  if (!chain.constant(a[1], ScalarType::Float) || a[1]->to_tensor().numel() != cols ||
      !a[1]->to_tensor().is_contiguous() || !is_int(a[3], 0))
    return false;
  if (!a[2]->is_none()) {
    if (!chain.constant(a[2], ScalarType::Long) || a[2]->to_tensor().numel() != cols) return false;
    const Tensor& zeros = a[2]->to_tensor();
    for (int64_t j = 0; j < cols; ++j) {
      if (zeros.data_as<const int64_t>()[zeros.offset_of(j)] != 0) return false;
    }
  }
  layer->weight_scales = a[1]->to_tensor().data_as<const float>();
  layer->per_channel = true;
  return true;
}

// A convolution's stride, padding and dilation (two Ints each, or one for both), not
// transposed; its groups.
bool convolution_geometry(Span<EValue* const> pa, QuantizedLayer* layer) {
  int64_t* fields[3] = {layer->stride, layer->padding, layer->dilation};
  for (size_t f = 0; f < 3; ++f) {
    const EValue* list = pa[3 + f];
    if (list->tag() != Tag::IntList) return false;
    const BoxedList items = list->to_list();
    if (items.size != 1 && items.size != 2) return false;
    for (uint32_t d = 0; d < 2; ++d) {
      const EValue* item = items.items[items.size == 1 ? 0 : d];
      if (item->tag() != Tag::Int) return false;
      fields[f][d] = item->to_int();
    }
  }
  layer->groups = pa[8]->tag() == Tag::Int ? pa[8]->to_int() : 0;
  return pa[6]->tag() == Tag::Bool && !pa[6]->to_bool() && layer->groups >= 1;
}

// The quantize call at `q` as the exporter writes it: scalar parameters, an 8-bit out and a
// range its kernel accepts for that out (else it fails, and so must a rewritten call).
bool quantize_call(const Chain& chain, uint32_t q) {
  const Span<EValue* const> qa = chain.calls[q].args;
  if (qa.size() != kArgs[kQuantize] || qa[6] != qa[7] || !qa[7]->is_tensor() ||
      !is_8bit(qa[7]->to_tensor().dtype()) || !scalar_qparams(qa))
    return false;
  const bool byte = qa[7]->to_tensor().dtype() == ScalarType::Byte;
  return qa[3]->to_int() >= (byte ? 0 : -128) && qa[4]->to_int() <= (byte ? 255 : 127);
}

// Matches the chain ending at the quantize call `q` (a quantize_call) (Note [Quantized calls at load]);
// `freed` gets its other calls.
bool match_layer(const Chain& chain, uint32_t q, QuantizedLayer* layer, float* one_scale,
                 uint32_t (&freed)[5], EValue** input) {
  const Span<EValue* const> qa = chain.calls[q].args;
  uint32_t relu = chain.single_producer(qa[0], kRelu, ScalarType::Float);
  const EValue* y = relu == kNone ? qa[0] : chain.calls[relu].args[0];
  uint32_t product = chain.single_producer(y, kAddmm, ScalarType::Float);
  if (product == kNone) product = chain.single_producer(y, kMm, ScalarType::Float);
  if (product == kNone) product = chain.single_producer(y, kConvolution, ScalarType::Float);
  if (product == kNone) return false;
  const Span<EValue* const> pa = chain.calls[product].args;
  const Op op = static_cast<Op>(chain.op(product));
  layer->convolution = op == kConvolution;
  const size_t first = op == kAddmm ? 1 : 0;  // the input's index, then the weight's
  const EValue* bias = op == kAddmm ? pa[0] : op == kConvolution ? pa[2] : nullptr;
  if (op == kAddmm && (!is_one(pa[3]) || !is_one(pa[4]))) return false;
  if (op == kConvolution && !convolution_geometry(pa, layer)) return false;
  layer->bias = nullptr;
  if (bias != nullptr && !bias->is_none()) {
    if (!chain.constant(bias, ScalarType::Float)) return false;
    layer->bias = &bias->to_tensor();
  }
  const uint32_t dequantize = chain.single_producer(pa[first], kDequantize, ScalarType::Float);
  if (dequantize == kNone) return false;
  const Span<EValue* const> da = chain.calls[dequantize].args;
  if (!scalar_qparams(da) || !da[0]->is_tensor() || !is_8bit(da[0]->to_tensor().dtype()) ||
      da[0]->to_tensor().dim() != (layer->convolution ? 4 : 2) ||
      !(da[6]->is_none() || is_int(da[6], 6)) || chain.program.holds(da[0]->to_tensor().data()) ||
      !zero_point_fits(da[2]->to_int(), da[0]->to_tensor().dtype()))
    return false;
  // A Linear's weight is transposed (permute_copy, dims [1, 0]); a convolution's is not.
  uint32_t permute = kNone;
  const EValue* weight_value = pa[first + 1];
  if (!layer->convolution) {
    permute = chain.single_producer(weight_value, kPermute, ScalarType::Float);
    if (permute == kNone) return false;
    const Span<EValue* const> ta = chain.calls[permute].args;
    if (ta[1]->tag() != Tag::IntList || ta[1]->to_list().size != 2 ||
        !is_int(ta[1]->to_list().items[0], 1) || !is_int(ta[1]->to_list().items[1], 0))
      return false;
    weight_value = ta[0];
  }
  uint32_t weight = chain.single_producer(weight_value, kDequantizeChannel, ScalarType::Float);
  if (weight == kNone) weight = chain.single_producer(weight_value, kDequantize, ScalarType::Float);
  if (weight == kNone || !weight_of(chain, chain.calls[weight], layer, one_scale)) return false;
  if (!layer->convolution && layer->weight->size(1) != da[0]->to_tensor().size(1)) return false;
  // Only the chain's calls run between x's dequantize and the quantize.
  const uint32_t mine[5] = {dequantize, permute, product, relu, weight};
  for (uint32_t pc = dequantize + 1; pc < q; ++pc) {
    const Instruction::Kind kind = chain.calls[pc].kind;
    bool ours = kind == Instruction::Kind::Free || kind == Instruction::Kind::Folded;
    for (uint32_t m : mine) ours = ours || m == pc;
    if (!ours) return false;
  }
  if (product < dequantize || (relu != kNone && relu < product) || product > q) return false;
  layer->input_scale = da[1]->to_double();
  layer->input_zero_point = da[2]->to_int();
  layer->out_scale = qa[1]->to_double();
  layer->out_zero_point = qa[2]->to_int();
  layer->out_min = qa[3]->to_int();
  layer->out_max = qa[4]->to_int();
  if (relu != kNone && layer->out_zero_point > layer->out_min)
    layer->out_min = layer->out_zero_point;  // relu then quantize: the clamp at the zero point
  for (size_t k = 0; k < 5; ++k) freed[k] = mine[k];
  *input = da[0];
  return true;
}

// Whether `a` and `b`, a quantize's and a dequantize's arguments, have the same scalar
// scale, zero point, range and dtype.
bool same_qparams(Span<EValue* const> a, Span<EValue* const> b) {
  if (!scalar_qparams(a) || !scalar_qparams(b) || a[1]->to_double() != b[1]->to_double())
    return false;
  for (size_t k = 2; k < 6; ++k) {
    if (a[k]->to_int() != b[k]->to_int()) return false;
  }
  return true;
}

// The activation's bound v, a float where the float chain computes it, quantized as the
// quantize kernel does (Note [Quantized rounding]) into [low, high].
int64_t quantized_bound(double v, double scale, int64_t zero_point, int64_t low, int64_t high) {
  return quantized::quantize_value<int64_t>(static_cast<float>(v), 1.0f / static_cast<float>(scale),
                                            static_cast<int32_t>(zero_point), low, high);
}

// Note [Quantized calls at load]: a relu or hardtanh the exporter quantizes on its own right
// after the layer's quantize q (dequantize, the activation, quantize, all three with q's
// scale, zero point, range and dtype) is a clamp of q's integers, folded into the layer's
// range. Returns the last quantize (or q) and adds the calls it replaces to `freed`.
uint32_t activation_after(const Chain& chain, uint32_t q, QuantizedLayer* layer,
                          uint32_t (&freed)[3]) {
  const Span<EValue* const> qa = chain.calls[q].args;
  const uint32_t d = static_cast<uint32_t>(chain.next_run(q));
  const uint32_t h = d < chain.calls.size() ? static_cast<uint32_t>(chain.next_run(d)) : d;
  const uint32_t q2 = h < chain.calls.size() ? static_cast<uint32_t>(chain.next_run(h)) : h;
  if (q2 >= chain.calls.size()) return q;
  const Instruction& dq = chain.calls[d];
  const Instruction& act = chain.calls[h];
  const Instruction& last = chain.calls[q2];
  // Each instruction's kind and arity first: a Move or a call of another operator has
  // no args[0] to look at.
  const bool shapes = chain.op(d) == kDequantize && dq.args.size() == kArgs[kDequantize] &&
                      (chain.op(h) == kRelu || chain.op(h) == kHardtanh) &&
                      act.args.size() == kArgs[chain.op(h)] && chain.op(q2) == kQuantize &&
                      last.args.size() == kArgs[kQuantize];
  if (!shapes || chain.single_producer(dq.args[0], kQuantize, qa[7]->to_tensor().dtype()) != q ||
      !same_qparams(qa, dq.args) || !(dq.args[6]->is_none() || is_int(dq.args[6], 6)))
    return q;
  if (chain.single_producer(act.args[0], kDequantize, ScalarType::Float) != d ||
      chain.single_producer(last.args[0], static_cast<Op>(chain.op(h)), ScalarType::Float) != h ||
      !same_qparams(qa, last.args) || last.args[6] != last.args[7] || !last.args[7]->is_tensor() ||
      last.args[7]->to_tensor().dtype() != qa[7]->to_tensor().dtype())
    return q;
  double low = 0.0, high = HUGE_VAL;  // relu
  if (chain.op(h) == kHardtanh) {
    for (size_t k = 1; k < 3; ++k) {
      const EValue* bound = act.args[k];
      if (bound->tag() != Tag::Int && bound->tag() != Tag::Double) return q;
      (k == 1 ? low : high) =
          bound->tag() == Tag::Int ? static_cast<double>(bound->to_int()) : bound->to_double();
    }
  }
  const double scale = qa[1]->to_double();
  const int64_t zero = qa[2]->to_int(), qmin = qa[3]->to_int(), qmax = qa[4]->to_int();
  const int64_t lo = quantized_bound(low, scale, zero, qmin, qmax);
  const int64_t hi = high == HUGE_VAL ? qmax : quantized_bound(high, scale, zero, qmin, qmax);
  if (lo > layer->out_min) layer->out_min = lo;
  if (hi < layer->out_max) layer->out_max = hi;
  freed[0] = q, freed[1] = d, freed[2] = h;
  return q2;
}

// Whether `instruction` may write bytes of `t`: a move, a jump, or a call's out (any
// argument of a call that is not an out variant) over them.
bool may_write(const Instruction& instruction, const Tensor& t) {
  switch (instruction.kind) {
    case Instruction::Kind::Free:
    case Instruction::Kind::Folded:
      return false;
    case Instruction::Kind::Move:
    case Instruction::Kind::JumpFalse:
      return true;
    case Instruction::Kind::Kernel:
      break;
  }
  const size_t n = instruction.args.size();
  for (size_t a = instruction.pure_out && n > 0 ? n - 1 : 0; a < n; ++a) {
    const EValue* arg = instruction.args[a];
    if (arg->is_tensor() && overlaps(arg->to_tensor(), t)) return true;
    if (!is_list_value(arg) || arg->tag() == Tag::IntList) continue;
    const BoxedList items = arg->to_list();
    for (uint32_t k = 0; k < items.size; ++k) {
      if (items.items[k]->is_tensor() && overlaps(items.items[k]->to_tensor(), t)) return true;
    }
  }
  return false;
}

bool same_shape(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim() || !a.is_contiguous() || !b.is_contiguous()) return false;
  for (int d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d)) return false;
  }
  return true;
}

// What match_add found: the calls it replaces and where the add's operands are read.
struct AddChain {
  uint32_t dequantize[2], add;
  EValue* operands[2];
  // Whether an operand is written over before the quantize: then its dequantize becomes a
  // copy of it into the dequantize's out's memory (planned for the float values, unused
  // by anything else until the add), which the add reads.
  bool kept[2];
};

// Note [Quantized calls at load]: the residual add q = quantize(add(dequantize(a),
// dequantize(b))), all of one 8-bit static dtype, per-tensor scalars, one shape, alpha 1.
bool match_add(const Chain& chain, uint32_t q, quantized_calls::Add* plan, AddChain* found) {
  const Span<EValue* const> qa = chain.calls[q].args;
  const uint32_t add = chain.single_producer(qa[0], kAdd, ScalarType::Float);
  if (add == kNone || add > q || !is_one(chain.calls[add].args[2])) return false;
  const Tensor& out = qa[7]->to_tensor();
  const ScalarType dtype = out.dtype();
  if (qa[5]->to_int() != static_cast<int64_t>(dtype) || out.is_dynamic()) return false;
  found->add = add;
  for (size_t k = 0; k < 2; ++k) {
    const uint32_t d =
        chain.single_producer(chain.calls[add].args[k], kDequantize, ScalarType::Float);
    if (d == kNone || d > add) return false;
    const Span<EValue* const> da = chain.calls[d].args;
    if (!scalar_qparams(da) || !da[0]->is_tensor() || da[0]->to_tensor().dtype() != dtype ||
        da[5]->to_int() != static_cast<int64_t>(dtype) || da[3]->to_int() > da[4]->to_int() ||
        !(da[6]->is_none() || is_int(da[6], 6)) || !same_shape(da[0]->to_tensor(), out) ||
        da[0]->to_tensor().is_dynamic())
      return false;
    found->dequantize[k] = d;
    found->operands[k] = da[0];
    (k == 0 ? plan->a_scale : plan->b_scale) = static_cast<float>(da[1]->to_double());
    (k == 0 ? plan->a_zero : plan->b_zero) = da[2]->to_int();
  }
  // Each operand is read at the quantize's place, in place or kept; out may take its memory
  // (all of it, not a part), and nothing in between may write it (the other dequantize
  // included: its out may have taken the operand's memory).
  for (size_t k = 0; k < 2; ++k) {
    const Tensor* read = &found->operands[k]->to_tensor();
    found->kept[k] = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
      bool written = overlaps(*read, out) && read->data() != out.data();
      for (uint32_t pc = found->dequantize[k] + 1; pc < q && !written; ++pc) {
        written = pc != add && may_write(chain.calls[pc], *read);
      }
      if (!written) break;
      const Tensor& floats = chain.calls[add].args[k]->to_tensor();
      if (attempt == 1 || floats.capacity() < read->capacity()) return false;
      read = &floats;
      found->kept[k] = true;
    }
  }
  plan->inv_scale = 1.0f / static_cast<float>(qa[1]->to_double());
  plan->zero_point = static_cast<int32_t>(qa[2]->to_int());
  plan->quant_min = qa[3]->to_int();
  plan->quant_max = qa[4]->to_int();
  plan->prepared.bytes = sizeof(quantized_calls::Add);
  return true;
}

Status out_of_memory() {
  return Status(Error::OutOfMemory, "out of memory while loading the method");
}

// The residual add ending at `q`, if it is one (match_add), rewritten into one call.
Status rewrite_add(Chain& chain, uint32_t q, Arena& arena) {
  if (quantized_calls::add == nullptr || quantized_calls::keep == nullptr) return Status();
  quantized_calls::Add plan{};
  AddChain found{};
  if (!match_add(chain, q, &plan, &found)) return Status();
  auto* kept = arena.allocate_array<quantized_calls::Add>(1);
  EValue** args = arena.allocate_array<EValue*>(4);
  if (kept == nullptr || args == nullptr) return out_of_memory();
  *kept = plan;
  Instruction& call = chain.calls[q];
  for (size_t k = 0; k < 2; ++k) {
    Instruction& dequantize = chain.calls[found.dequantize[k]];
    args[k] = found.operands[k];
    if (!found.kept[k]) {
      dequantize.kind = Instruction::Kind::Free;
      continue;
    }
    // The float out's value becomes the copy: the operand's dtype and shape, the float
    // out's memory (the value's only other reader is the add, freed).
    EValue* copy = chain.calls[found.add].args[k];
    Tensor* tensor = arena.allocate_array<Tensor>(1);
    EValue** keep_args = arena.allocate_array<EValue*>(3);
    if (tensor == nullptr || keep_args == nullptr) return out_of_memory();
    *tensor = found.operands[k]->to_tensor();
    tensor->set_data(copy->to_tensor().data());
    *copy = EValue::from_tensor(tensor);
    keep_args[0] = found.operands[k], keep_args[1] = keep_args[2] = copy;
    dequantize.fn = quantized_calls::keep;
    dequantize.args = Span<EValue* const>(keep_args, 3);
    dequantize.pure_out = false;
    args[k] = copy;
  }
  args[2] = args[3] = call.args[7];
  call.fn = quantized_calls::add;
  call.args = Span<EValue* const>(args, 4);
  call.prepared = kept;
  call.pure_out = false;  // never run by constant folding: only with its plan
  chain.calls[found.add].kind = Instruction::Kind::Free;
  return Status();
}

// Note [Quantized calls at load]: a quantize of Float values or a dequantize into Float
// values still in the program takes the wide entry, its arguments as they are, where
// everything its kernel checks but the shapes is known now and holds.
void widen(Chain& chain, uint32_t pc) {
  Instruction& call = chain.calls[pc];
  const Span<EValue* const> a = call.args;
  if (call.kind != Instruction::Kind::Kernel) return;
  if (chain.op(pc) == kQuantize && quantize_call(chain, pc) && a[0]->is_tensor() &&
      a[0]->to_tensor().dtype() == ScalarType::Float &&
      a[5]->to_int() == static_cast<int64_t>(a[7]->to_tensor().dtype())) {
    call.fn = quantized_calls::quantize;
  } else if (chain.op(pc) == kDequantize && a.size() == kArgs[kDequantize] && a[7] == a[8] &&
             scalar_qparams(a) && a[0]->is_tensor() && is_8bit(a[0]->to_tensor().dtype()) &&
             a[5]->to_int() == static_cast<int64_t>(a[0]->to_tensor().dtype()) &&
             a[3]->to_int() <= a[4]->to_int() && (a[6]->is_none() || is_int(a[6], 6)) &&
             a[8]->is_tensor() && a[8]->to_tensor().dtype() == ScalarType::Float) {
    call.fn = quantized_calls::dequantize;
  }
}

}  // namespace

Status quantize_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                      BoxedList outputs, const Program& program, const KernelRegistry& registry,
                      Arena& arena) {
  if (quantized_calls::linear == nullptr || quantized_calls::convolution == nullptr ||
      quantized_calls::prepare == nullptr)
    return Status();
  const size_t m = instructions.size();
  const Operators ops(registry, kNames, kOps);
  Chain chain(instructions, values, program, ops);
  if (!chain.allocate(arena)) return out_of_memory();
  if (chain.count(inputs, outputs)) {
    for (uint32_t pc = 0; pc < m; ++pc) {
      if (instructions[pc].kind != Instruction::Kind::Kernel || chain.op(pc) != kQuantize ||
          !quantize_call(chain, pc))
        continue;
      const Status added = rewrite_add(chain, pc, arena);
      if (!added.ok()) return added;
      if (instructions[pc].fn == quantized_calls::add) continue;
      QuantizedLayer layer{};
      uint32_t freed[5];
      EValue* input = nullptr;
      float* one_scale = arena.allocate_array<float>(1);
      if (one_scale == nullptr) return out_of_memory();
      if (!match_layer(chain, pc, &layer, one_scale, freed, &input)) continue;
      uint32_t after[3] = {kNone, kNone, kNone};
      const uint32_t last = activation_after(chain, pc, &layer, after);
      size_t bytes = 0;
      const void* plan = quantized_calls::prepare(layer, arena, &bytes);
      if (plan == nullptr) {
        if (bytes != 0) return out_of_memory();
        continue;
      }
      EValue** args = arena.allocate_array<EValue*>(3);
      if (args == nullptr) return out_of_memory();
      Instruction& call = instructions[last];
      args[0] = input, args[1] = args[2] = call.args[7];
      call.fn = layer.convolution ? quantized_calls::convolution : quantized_calls::linear;
      call.args = Span<EValue* const>(args, 3);
      call.prepared = plan;
      call.pure_out = false;  // never run by constant folding: only with its plan
      for (uint32_t f : after) {
        if (f != kNone) instructions[f].kind = Instruction::Kind::Free;
      }
      for (uint32_t f : freed) {
        if (f != kNone) instructions[f].kind = Instruction::Kind::Free;
      }
    }
    if (quantized_calls::quantize != nullptr && quantized_calls::dequantize != nullptr) {
      for (uint32_t pc = 0; pc < m; ++pc) widen(chain, pc);
    }
  }
  chain.release(arena);
  return Status();
}

QuantizedStats quantized_stats(Span<Instruction> instructions) {
  QuantizedStats stats{0, 0, 0};
  if (quantized_calls::prepare == nullptr) return stats;
  for (const Instruction& call : instructions) {
    if (call.kind != Instruction::Kind::Kernel) continue;
    if (call.fn == quantized_calls::linear || call.fn == quantized_calls::convolution ||
        (quantized_calls::add != nullptr && call.fn == quantized_calls::add)) {
      ++stats.calls;
      stats.bytes += static_cast<const quantized_calls::Prepared*>(call.prepared)->bytes;
    } else if (quantized_calls::quantize != nullptr &&
               (call.fn == quantized_calls::quantize || call.fn == quantized_calls::dequantize)) {
      ++stats.wide;  // no plan: the exporter's arguments
    }
  }
  return stats;
}

}  // namespace rt

#endif  // RT_QUANT_CALLS
