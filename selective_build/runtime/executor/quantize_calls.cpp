#include "runtime/executor/quantize_calls.h"

#ifdef RT_QUANT_CALLS

#include <cmath>
#include <cstdint>
#include <cstring>

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
};

// The calls' arguments, as the exporter writes each: the out twice at the end.
constexpr size_t kArgs[kOps] = {0, 8, 9, 10, 4, 7, 4, 11, 3, 5};

constexpr uint32_t kNone = UINT32_MAX;

// Who reads and writes each value, and the operator and producer of each call.
struct Chain {
  Span<Instruction> calls;
  Span<EValue> values;
  const Program& program;
  uint8_t* op;         // per instruction
  uint8_t* uses;       // per value: references by calls, moves, the method's inputs and outputs
  uint8_t* written;    // per value: by a call, a move or the caller
  uint32_t* producer;  // per value: the call whose out it is, or kNone

  size_t at(const EValue* value) const { return static_cast<size_t>(value - values.data()); }
  bool owned(const EValue* value) const {
    return value >= values.data() && value < values.data() + values.size();
  }
  void use(const EValue* value) {
    if (owned(value) && uses[at(value)] < UINT8_MAX) ++uses[at(value)];
  }
  void write(const EValue* value) {
    if (owned(value)) written[at(value)] = 1;
  }

  // False if the method has a jump (then nothing is rewritten).
  bool count(const KernelRegistry& registry, BoxedList inputs, BoxedList outputs) {
    for (uint32_t k = 0; k < inputs.size; ++k) use(inputs.items[k]), write(inputs.items[k]);
    for (uint32_t k = 0; k < outputs.size; ++k) use(outputs.items[k]);
    const Span<const Kernel> kernels = registry.kernels();
    for (size_t pc = 0; pc < calls.size(); ++pc) {
      const Instruction& call = calls[pc];
      if (call.kind == Instruction::Kind::JumpFalse) return false;
      if (call.kind == Instruction::Kind::Move) {
        use(&values[call.first]), use(&values[call.second]), write(&values[call.second]);
        continue;
      }
      if (call.kind != Instruction::Kind::Kernel) continue;
      for (const Kernel& kernel : kernels) {
        if (kernel.fn != call.fn) continue;
        for (uint8_t o = 1; o < kOps; ++o) {
          if (strcmp(kernel.name, kNames[o]) == 0) op[pc] = o;
        }
        break;
      }
      const size_t n = call.args.size();
      for (size_t a = 0; a < n; ++a) {
        use(call.args[a]);
        const Tag tag = call.args[a]->tag();
        if (tag == Tag::TensorList || tag == Tag::OptionalTensorList || tag == Tag::IntList) {
          const BoxedList items = call.args[a]->to_list();
          for (uint32_t k = 0; k < items.size; ++k) use(items.items[k]);
        }
        if (a + 1 == n || !call.pure_out) write(call.args[a]);
      }
      if (call.pure_out && n >= 2 && call.args[n - 1] == call.args[n - 2] &&
          owned(call.args[n - 1]))
        producer[at(call.args[n - 1])] = static_cast<uint32_t>(pc);
    }
    return true;
  }

  // The call of operator `o` that alone writes `value`, a tensor of `dtype` that only it
  // (out and return slot) and one other call read; kNone if there is none.
  uint32_t single_producer(const EValue* value, Op o, ScalarType dtype) const {
    if (!owned(value) || !value->is_tensor() || value->to_tensor().dtype() != dtype ||
        uses[at(value)] != 3)
      return kNone;
    const uint32_t pc = producer[at(value)];
    if (pc == kNone || op[pc] != o || calls[pc].args.size() != kArgs[o]) return kNone;
    return pc;
  }

  // A tensor held in the program file that nothing writes.
  bool constant(const EValue* value, ScalarType dtype) const {
    return value->is_tensor() && value->to_tensor().dtype() == dtype &&
           (!owned(value) || written[at(value)] == 0) && program.holds(value->to_tensor().data());
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
  if (chain.op[&call - chain.calls.data()] == kDequantize) {
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

// Matches the chain ending at the quantize call `q` (Note [Quantized calls at load]);
// `freed` gets its other calls.
bool match_layer(const Chain& chain, uint32_t q, QuantizedLayer* layer, float* one_scale,
                 uint32_t (&freed)[5], EValue** input) {
  const Span<EValue* const> qa = chain.calls[q].args;
  if (qa.size() != kArgs[kQuantize] || qa[6] != qa[7] || !qa[7]->is_tensor() ||
      !is_8bit(qa[7]->to_tensor().dtype()) || !scalar_qparams(qa))
    return false;
  // The range the quantize kernel accepts for its out (else it fails, and so must the call).
  const bool byte = qa[7]->to_tensor().dtype() == ScalarType::Byte;
  if (qa[3]->to_int() < (byte ? 0 : -128) || qa[4]->to_int() > (byte ? 255 : 127)) return false;
  uint32_t relu = chain.single_producer(qa[0], kRelu, ScalarType::Float);
  const EValue* y = relu == kNone ? qa[0] : chain.calls[relu].args[0];
  uint32_t product = chain.single_producer(y, kAddmm, ScalarType::Float);
  if (product == kNone) product = chain.single_producer(y, kMm, ScalarType::Float);
  if (product == kNone) product = chain.single_producer(y, kConvolution, ScalarType::Float);
  if (product == kNone) return false;
  const Span<EValue* const> pa = chain.calls[product].args;
  const Op op = static_cast<Op>(chain.op[product]);
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

// The next instruction after `pc` that runs (no-ops skipped), or the end.
uint32_t next_run(const Chain& chain, uint32_t pc) {
  ++pc;
  while (pc < chain.calls.size() && (chain.calls[pc].kind == Instruction::Kind::Free ||
                                     chain.calls[pc].kind == Instruction::Kind::Folded))
    ++pc;
  return pc;
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

// v quantized as the quantize kernel does (Note [Quantized rounding]), clamped to
// [low, high]: nearbyint as Note [Rounding without nearbyint].
int64_t quantized_bound(double v, double scale, int64_t zero_point, int64_t low, int64_t high) {
  float x = (1.0f / static_cast<float>(scale)) * static_cast<float>(v);
  x = x < -4194304.0f ? -4194304.0f : x > 4194304.0f ? 4194304.0f : x;  // |x| <= 2^22
  const float q = static_cast<float>(zero_point) + ((x + 12582912.0f) - 12582912.0f);
  return q < static_cast<float>(low) ? low : q > static_cast<float>(high) ? high : int64_t(q);
}

// Note [Quantized calls at load]: a relu or hardtanh the exporter quantizes on its own right
// after the layer's quantize q (dequantize, the activation, quantize, all three with q's
// scale, zero point, range and dtype) is a clamp of q's integers, folded into the layer's
// range. Returns the last quantize (or q) and adds the calls it replaces to `freed`.
uint32_t activation_after(const Chain& chain, uint32_t q, QuantizedLayer* layer,
                          uint32_t (&freed)[3]) {
  const Span<EValue* const> qa = chain.calls[q].args;
  const uint32_t d = next_run(chain, q);
  const uint32_t h = d < chain.calls.size() ? next_run(chain, d) : d;
  const uint32_t q2 = h < chain.calls.size() ? next_run(chain, h) : h;
  if (q2 >= chain.calls.size()) return q;
  const Instruction& dq = chain.calls[d];
  const Instruction& act = chain.calls[h];
  const Instruction& last = chain.calls[q2];
  // Each instruction's kind and arity first: a Move or a call of another operator has
  // no args[0] to look at.
  const bool shapes = chain.op[d] == kDequantize && dq.args.size() == kArgs[kDequantize] &&
                      (chain.op[h] == kRelu || chain.op[h] == kHardtanh) &&
                      act.args.size() == kArgs[chain.op[h]] && chain.op[q2] == kQuantize &&
                      last.args.size() == kArgs[kQuantize];
  if (!shapes || chain.single_producer(dq.args[0], kQuantize, qa[7]->to_tensor().dtype()) != q ||
      !same_qparams(qa, dq.args) || !(dq.args[6]->is_none() || is_int(dq.args[6], 6)))
    return q;
  if (chain.single_producer(act.args[0], kDequantize, ScalarType::Float) != d ||
      chain.single_producer(last.args[0], static_cast<Op>(chain.op[h]), ScalarType::Float) != h ||
      !same_qparams(qa, last.args) || last.args[6] != last.args[7] || !last.args[7]->is_tensor() ||
      last.args[7]->to_tensor().dtype() != qa[7]->to_tensor().dtype())
    return q;
  double low = 0.0, high = HUGE_VAL;  // relu
  if (chain.op[h] == kHardtanh) {
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

Status out_of_memory() {
  return Status(Error::OutOfMemory, "out of memory while loading the method");
}

}  // namespace

Status quantize_calls(Span<Instruction> instructions, Span<EValue> values, BoxedList inputs,
                      BoxedList outputs, const Program& program, const KernelRegistry& registry,
                      Arena& arena) {
  if (quantized_calls::linear == nullptr || quantized_calls::convolution == nullptr ||
      quantized_calls::prepare == nullptr)
    return Status();
  const size_t n = values.size(), m = instructions.size();
  uint8_t* marks = arena.allocate_array<uint8_t>(2 * n + m);
  uint32_t* producer = arena.allocate_array<uint32_t>(n);
  if (marks == nullptr || producer == nullptr) return out_of_memory();
  for (size_t i = 0; i < n; ++i) producer[i] = kNone;
  Chain chain{instructions, values, program, marks + 2 * n, marks, marks + n, producer};
  if (chain.count(registry, inputs, outputs)) {
    for (uint32_t pc = 0; pc < m; ++pc) {
      if (instructions[pc].kind != Instruction::Kind::Kernel || chain.op[pc] != kQuantize) continue;
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
  }
  arena.release(marks);
  arena.release(producer);
  return Status();
}

QuantizedStats quantized_stats(Span<Instruction> instructions) {
  QuantizedStats stats{0, 0};
  for (const Instruction& call : instructions) {
    if (call.kind != Instruction::Kind::Kernel || quantized_calls::prepare == nullptr ||
        (call.fn != quantized_calls::linear && call.fn != quantized_calls::convolution))
      continue;
    ++stats.calls;
    stats.bytes += static_cast<const quantized_calls::Prepared*>(call.prepared)->bytes;
  }
  return stats;
}

}  // namespace rt

#endif  // RT_QUANT_CALLS
