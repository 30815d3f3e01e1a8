#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/binary.h"
#include "kernels/portable/util/where.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::where.self_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
constexpr uint32_t kConditionBits = kernels::declared_dtypes(kOp, "condition").bits();

// A call the loops below take: out = condition ? self : other, all contiguous, the
// values Float and each of them full or one value, the condition full, one value, or one
// per row of `inner` elements (Note [Fast binary layouts]): the mask of a safe softmax,
// torch's attention that zeroes rows of -inf scores, is [..., 1] against [..., n].
struct WherePlan {
  Operand condition, self, other;
  int64_t inner;
};

bool plan_fast_where(const rt::OpContext& in, const rt::Tensor& condition, const rt::Tensor& self,
                     const rt::Tensor& other, rt::Tensor& out, WherePlan* plan, bool* empty) {
  constexpr rt::ScalarType kFloat = rt::ScalarType::Float;
  if (condition.dtype() != rt::ScalarType::Bool || self.dtype() != kFloat ||
      other.dtype() != kFloat || out.dtype() != kFloat) {
    return false;
  }
  if (!condition.is_contiguous() || !self.is_contiguous() || !other.is_contiguous() ||
      !out.is_contiguous()) {
    return false;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!portable::where_out_sizes(condition, self, other, sizes, &dim)) {
    return false;  // portable reports it
  }
  int split = 0;
  int unused = 0;
  plan->condition = classify(condition, sizes, dim, &split);
  plan->self = classify(self, sizes, dim, &unused);
  plan->other = classify(other, sizes, dim, &unused);
  const auto value = [](Operand o) { return o == Operand::kFull || o == Operand::kScalar; };
  if (!value(plan->self) || !value(plan->other) ||
      !(value(plan->condition) || plan->condition == Operand::kColumn)) {
    return false;
  }
  *empty = !rt::resize_out(in, out, sizes, dim) || out.numel() == 0;
  plan->inner = out.numel();
  if (plan->condition == Operand::kColumn) {
    plan->inner = 1;
    for (int d = split; d < dim; ++d) plan->inner *= sizes[d];
  }
  return true;
}

// out[begin, begin + n) from the values `source` (one value or out's shape).
void place(float* out, const float* source, Operand kind, int64_t begin, int64_t n) {
  if (kind == Operand::kScalar) {
    std::fill_n(out + begin, n, source[0]);
  } else {
    memmove(out + begin, source + begin, static_cast<size_t>(n) * sizeof(float));  // may alias
  }
}

void run_fast_where(const WherePlan& plan, const uint8_t* c, const float* a, const float* b,
                    float* out, int64_t numel) {
  if (plan.condition == Operand::kColumn || plan.condition == Operand::kScalar) {
    for (int64_t begin = 0, row = 0; begin < numel; begin += plan.inner, ++row) {
      const bool pick_self = c[plan.condition == Operand::kScalar ? 0 : row] != 0;
      place(out, pick_self ? a : b, pick_self ? plan.self : plan.other, begin, plan.inner);
    }
    return;
  }
  // Elementwise: with fixed strides (0 for one value) the select vectorises; each element
  // is read before it is written, so out may be self or other.
  const int64_t sa = plan.self == Operand::kFull ? 1 : 0;
  const int64_t sb = plan.other == Operand::kFull ? 1 : 0;
  for (int64_t i = 0; i < numel; ++i) out[i] = c[i] != 0 ? a[i * sa] : b[i * sb];
}

}  // namespace

// where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& where_self_out(rt::KernelContext& context, const rt::Tensor& condition,
                           const rt::Tensor& self, const rt::Tensor& other, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  WherePlan plan;
  bool empty = false;
  if (Dtypes::kEnabled.contains(rt::ScalarType::Float) &&
      Dtypes::kEnabled.contains(rt::ScalarType::Bool) &&
      plan_fast_where(in, condition, self, other, out, &plan, &empty)) {
    if (!empty) {
      run_fast_where(plan, condition.data_as<const uint8_t>(), self.data_as<const float>(),
                     other.data_as<const float>(), out.data_as<float>(), out.numel());
    }
    return out;
  }
  portable::where_kernel<Dtypes, kConditionBits>(context, kOp, condition, self, other, out);
  return out;
}

}  // namespace optimized
