#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/strided_walk.h"
#include "kernels/portable/util/unary_args.h"
#include "kernels/portable/util/unary_clamp.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::clamp.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// A bool self is clamped in Long or Float (whatever its bounds promote it
// to); torch has no bool clamp.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;
using Compute =
    rt::DtypeDispatch<(kernels::declared_dtypes(kOp) & rt::kRealDtypes).bits(), kSelected.bits()>;

// torch.result_type(self, bound) for a scalar bound: a float bound makes an
// integer or bool self Float, an integer bound makes a bool self Long.
ScalarType promote_with_bound(ScalarType common, rt::Scalar bound) {
  if (bound.is_floating()) return rt::is_floating_type(common) ? common : ScalarType::Float;
  if (!bound.is_bool() && common == ScalarType::Bool) return ScalarType::Long;
  return common;
}

constexpr const char* kTensorOp = "aten::clamp.Tensor_out";
using TensorDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kTensorOp).bits(),
                                       rt::selected_dtypes(kTensorOp).bits()>;
using TensorCompute =
    rt::DtypeDispatch<(kernels::declared_dtypes(kTensorOp) & rt::kRealDtypes).bits(),
                      rt::selected_dtypes(kTensorOp).bits()>;

// clamp.Tensor_out: operands of the walk are out, self, min, max; a None
// bound is null (walked with stride 0, never read).
struct ClampCall {
  rt::Tensor* out;
  const rt::Tensor* operands[3];
  StridedWalk<4> walk;
};

// Clamps in the compute dtype T: a NaN self or bound gives NaN, and max
// wins when min > max, as torch's clamp with tensor bounds.
template <typename T>
void clamp_tensors(rt::KernelContext& context, ClampCall& call) {
  using M = opmath_t<T>;
  T (*load[3])(const uint8_t*) = {nullptr, nullptr, nullptr};
  void (*store)(uint8_t*, M) = nullptr;
  for (int k = 0; k < 3; ++k) {
    if (call.operands[k] == nullptr) continue;
    TensorDtypes::run(context, kTensorOp, call.operands[k]->dtype(),
                      [&](auto t) { load[k] = &load_as<T, typename decltype(t)::type>; });
  }
  TensorDtypes::run(context, kTensorOp, call.out->dtype(), [&](auto t) {
    store = [](uint8_t* target, M value) {
      store_as<T, typename decltype(t)::type>(target, rt::value_cast<T>(value));
    };
  });
  if (context.failed()) return;
  StridedWalk<4>& walk = call.walk;
  int64_t size[4] = {static_cast<int64_t>(call.out->element_size()), 0, 0, 0};
  const uint8_t* base[3] = {};
  for (int k = 0; k < 3; ++k) {
    if (call.operands[k] == nullptr) continue;
    size[k + 1] = static_cast<int64_t>(call.operands[k]->element_size());
    base[k] = static_cast<const uint8_t*>(call.operands[k]->data());
  }
  const int64_t n = walk.row_size();
  do {
    uint8_t* o = static_cast<uint8_t*>(call.out->data()) + walk.offset(0) * size[0];
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* at[3];
      for (int k = 0; k < 3; ++k)
        at[k] = base[k] + (walk.offset(k + 1) + i * walk.row_stride(k + 1)) * size[k + 1];
      M x = rt::value_cast<M>(load[0](at[0]));
      for (int k = 1; k < 3 && x == x; ++k) {
        if (load[k] == nullptr) continue;
        const M bound = rt::value_cast<M>(load[k](at[k]));
        if (bound != bound || (k == 1 ? x < bound : x > bound)) x = bound;
      }
      store(o + i * walk.row_stride(0) * size[0], x);
    }
  } while (walk.next_row());
}

// torch.result_type of self and the bounds: 0-dim tensors only decide the
// dtype when of a higher category than the others (see result_type).
ScalarType clamp_result_type(const rt::Tensor* const* tensors) {
  bool dimmed = false, zero = false;
  ScalarType a = ScalarType::Bool, b = ScalarType::Bool;
  for (int k = 0; k < 3; ++k) {
    const rt::Tensor* t = tensors[k];
    if (t == nullptr) continue;
    bool& seen = t->dim() > 0 ? dimmed : zero;
    ScalarType& type = t->dim() > 0 ? a : b;
    type = seen ? promote_types(type, t->dtype()) : t->dtype();
    seen = true;
  }
  if (!dimmed || !zero) return dimmed ? a : b;
  if (rt::is_floating_type(a)) return a;
  return a == ScalarType::Bool || rt::is_floating_type(b) ? promote_types(a, b) : a;
}

}  // namespace

// clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& clamp_out(rt::KernelContext& context, const rt::Tensor& self,
                      rt::Optional<rt::Scalar> min, rt::Optional<rt::Scalar> max, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  UnaryClamp clamp;
  if (!check_clamp_args(in, min, max, &clamp)) return out;
  ScalarType common = self.dtype();
  if (clamp.has_lo) common = promote_with_bound(common, clamp.lo);
  if (clamp.has_hi) common = promote_with_bound(common, clamp.hi);
  if (rt::is_integral_type(common, false) &&
      ((clamp.has_lo && !unary_integer_fits(common, clamp.lo.to<int64_t>())) ||
       (clamp.has_hi && !unary_integer_fits(common, clamp.hi.to<int64_t>())))) {
    in.fail("a bound does not fit in self's dtype");
    return out;
  }
  unary_map<Dtypes, Compute>(in, self, out, common, clamp);
  return out;
}

// clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& clamp_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                             rt::Optional<rt::Tensor> min, rt::Optional<rt::Tensor> max,
                             rt::Tensor& out) {
  const rt::OpContext in(context, kTensorOp);
  ClampCall call;
  call.operands[0] = &self;
  call.operands[1] = min.get();
  call.operands[2] = max.get();
  call.out = &out;
  if (call.operands[1] == nullptr && call.operands[2] == nullptr) {
    in.fail("at least one of min and max must not be None");
    return out;
  }
  for (const rt::Tensor* t : call.operands) {
    if (t != nullptr && !TensorDtypes::check(context, kTensorOp, t->dtype())) return out;
  }
  if (!TensorDtypes::check(context, kTensorOp, call.out->dtype())) return out;
  const ScalarType common = clamp_result_type(call.operands);
  if (common == ScalarType::Bool) {
    in.fail("clamp is not supported for bool");
    return out;
  }
  if (!can_cast(common, call.out->dtype())) {
    in.fail("the result dtype cannot be cast to out's dtype");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = call.operands[0]->dim();
  for (int d = 0; d < dim; ++d) sizes[d] = call.operands[0]->size(d);
  for (int k = 1; k < 3; ++k) {
    const rt::Tensor* bound = call.operands[k];
    int32_t merged[rt::Tensor::kMaxDims];
    if (bound == nullptr) continue;
    if (!broadcast_sizes(sizes, dim, bound->sizes().data(), bound->dim(), merged, &dim)) {
      in.fail("self, min and max cannot be broadcast together");
      return out;
    }
    for (int d = 0; d < dim; ++d) sizes[d] = merged[d];
  }
  if (!resize_out(in, *call.out, sizes, dim) || call.out->numel() == 0) return out;
  call.walk.init(sizes, dim);
  call.walk.set_operand(0, *call.out);
  const int64_t none[rt::Tensor::kMaxDims] = {};
  for (int k = 0; k < 3; ++k) {
    if (call.operands[k] != nullptr) {
      call.walk.set_operand(k + 1, *call.operands[k]);
    } else {
      call.walk.set_operand_strides(k + 1, none);
    }
  }
  TensorCompute::run(context, kTensorOp, common,
                     [&](auto tag) { clamp_tensors<typename decltype(tag)::type>(context, call); });
  return out;
}

}  // namespace portable
