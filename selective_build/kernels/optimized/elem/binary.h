#pragma once

#include <cstdint>

#include "kernels/optimized/elem/layout.h"
#include "kernels/optimized/elem/loops.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/broadcast.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace optimized {

// Note [Fast binary layouts]
// A float binary op (add, sub, mul, div) runs a straight loop when its three
// tensors are Float and laid out so that out, seen as `outer` rows of `inner`
// elements, reads each operand in one of a few simple ways:
//   full    the operand has out's shape (and layout): element i;
//   scalar  one element for everything (a 0-dim tensor, a bias of [1]);
//   row     the operand repeats every row: element i % inner (a bias over
//           the last dims, x + b with b of shape [D]);
//   column  one element per row: element i / inner (x * rsqrt(mean) with the
//           mean kept as [..., 1], as RMSNorm and layer norm write it).
// And with out channels last (Note [Channels last], runtime/executor/channels_last.h),
// one operand in its layout and the other of shape [N, C, 1, 1] (an SE block's gate, laid
// out alike in either dim order): out is N * H * W rows of C, and the small operand is a
// row per image, row r / (H * W) of it.
// Anything else (other broadcasts, a dim order other than the default on a
// broadcast operand, other dtypes, a bool alpha...) goes to portable's
// strided template, which also reports every bad argument; so the fast path
// decides only when it is sure, and never reports an error itself except
// for the out resize, which fails the same way in both.
enum class Operand : uint8_t { kOther, kFull, kScalar, kRow, kColumn };

struct BinaryPlan {
  Operand a = Operand::kOther;
  Operand b = Operand::kOther;
  int64_t outer = 0;  // rows of out (for kRow / kColumn operands)
  int64_t inner = 0;  // elements per row
  int64_t image = 0;  // rows per image of a channels-last out's [N, C, 1, 1] operand; 0: none
  bool empty = false;
};

// True when out (channels last) is planned as rows of channels with `full` in its layout and
// `gate` an [N, C, 1, 1] tensor of out's N and C (Note [Fast binary layouts]).
inline bool per_pixel(const rt::Tensor& full, const rt::Tensor& gate, const rt::Tensor& out,
                      const int32_t* sizes, int dim) {
  if (dim != 4 || !out.is_channels_last() || !same_layout(full, out) || gate.dim() != 4)
    return false;
  for (int d = 0; d < 4; ++d)
    if (full.size(d) != sizes[d]) return false;
  const int32_t n = sizes[0], c = sizes[1];
  return gate.size(0) == n && gate.size(1) == c && gate.size(2) == 1 && gate.size(3) == 1 &&
         (c == 1 || gate.stride(1) == 1) && (n == 1 || gate.stride(0) == c);
}

// How `t` (aligned right against out's `sizes`) is read. A row or column
// split at `*split` (the first dim of the repeated or constant part).
inline Operand classify(const rt::Tensor& t, const int32_t* sizes, int dim, int* split) {
  int32_t padded[rt::Tensor::kMaxDims];
  const int lead = dim - t.dim();
  for (int d = 0; d < dim; ++d) padded[d] = d < lead ? 1 : t.size(d - lead);
  // The longest suffix equal to out's, and the longest suffix of ones.
  int same = dim;
  while (same > 0 && padded[same - 1] == sizes[same - 1]) --same;
  int ones = dim;
  while (ones > 0 && padded[ones - 1] == 1) --ones;
  if (same == 0) return Operand::kFull;
  if (ones == 0) return Operand::kScalar;
  bool leading_ones = true;
  for (int d = 0; d < same; ++d) leading_ones = leading_ones && padded[d] == 1;
  if (leading_ones) {
    *split = same;
    return Operand::kRow;
  }
  bool leading_same = true;
  for (int d = 0; d < ones; ++d) leading_same = leading_same && padded[d] == sizes[d];
  if (leading_same) {
    *split = ones;
    return Operand::kColumn;
  }
  return Operand::kOther;
}

// Plans a Float call of out = f(a, b) (Note [Fast binary layouts]): false when
// portable's template must take it. When true, out has been resized; `empty`
// says there is nothing to compute. On a failed resize the error is set and
// the plan is empty.
inline bool plan_fast_binary(const rt::OpContext& in, const rt::Tensor& a, const rt::Tensor& b,
                             rt::Tensor& out, BinaryPlan* plan) {
  if (a.dtype() != rt::ScalarType::Float || b.dtype() != rt::ScalarType::Float ||
      out.dtype() != rt::ScalarType::Float) {
    return false;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!portable::broadcast_shape(a, b, sizes, &dim)) return false;
  const bool contiguous = a.is_contiguous() && b.is_contiguous() && out.is_contiguous();
  const bool same = same_layout(a, b) && out.dim() == dim && same_layout(a, out);
  const bool a_gate = !contiguous && !same && per_pixel(b, a, out, sizes, dim);
  const bool b_gate = !contiguous && !same && !a_gate && per_pixel(a, b, out, sizes, dim);
  if (!contiguous && !same && !a_gate && !b_gate) return false;
  if (!rt::resize_out(in, out, sizes, dim) || out.numel() == 0) {
    plan->empty = true;
    return true;
  }
  if (a_gate || b_gate) {
    plan->a = a_gate ? Operand::kRow : Operand::kFull;
    plan->b = b_gate ? Operand::kRow : Operand::kFull;
    plan->inner = sizes[1];
    plan->image = static_cast<int64_t>(sizes[2]) * sizes[3];
    plan->outer = sizes[0] * plan->image;
    return true;
  }
  if (same) {
    plan->a = plan->b = Operand::kFull;
    plan->outer = 1;
    plan->inner = out.numel();
    return true;
  }
  int split_a = 0;
  int split_b = 0;
  plan->a = classify(a, sizes, dim, &split_a);
  plan->b = classify(b, sizes, dim, &split_b);
  // One operand full, the other anything simple; or both scalars (out of one element).
  const bool a_full = plan->a == Operand::kFull;
  const bool b_full = plan->b == Operand::kFull;
  if (!(a_full || b_full) || plan->a == Operand::kOther || plan->b == Operand::kOther) return false;
  const int split = a_full ? split_b : split_a;
  int64_t inner = 1;
  for (int d = split; d < dim; ++d) inner *= sizes[d];
  plan->inner = inner;
  plan->outer = out.numel() / inner;
  return true;
}

// out = f(a, b) over a planned call (f: float x float -> float, inlined), split over the
// threads (Note [Split elementwise]).
template <typename F>
void run_fast_binary(const BinaryPlan& plan, const float* a, const float* b, float* out, F f) {
  const auto swapped = [f](float y, float x) { return f(x, y); };
  const int64_t n = plan.outer * plan.inner;
  if (plan.a == Operand::kFull && plan.b == Operand::kFull)
    return split_elements(n, [&](int64_t s, int64_t e) { map2(out + s, a + s, b + s, e - s, f); });
  // A one-element operand is read once, before any item writes: `out` may be planned over
  // it (an input that dies here), and an item's write must not change what later items read.
  if (plan.b == Operand::kScalar) {
    const float y = b[0];
    return split_elements(
        n, [&, y](int64_t s, int64_t e) { map2_scalar(out + s, a + s, y, e - s, f); });
  }
  if (plan.a == Operand::kScalar) {
    const float x = a[0];
    return split_elements(
        n, [&, x](int64_t s, int64_t e) { map2_scalar(out + s, b + s, x, e - s, swapped); });
  }
  const int64_t inner = plan.inner;
  split_rows(plan.outer, inner, [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      float* o = out + r * inner;
      // A row operand's row: its only one, or its image's (per_pixel).
      const int64_t row = plan.image != 0 ? r / plan.image * inner : 0;
      switch (plan.b) {
        case Operand::kRow:
          map2(o, a + r * inner, b + row, inner, f);
          break;
        case Operand::kColumn:
          map2_scalar(o, a + r * inner, b[r], inner, f);
          break;
        default:  // b full: a is the row or column
          if (plan.a == Operand::kRow) {
            map2(o, b + r * inner, a + row, inner, swapped);
          } else {
            map2_scalar(o, b + r * inner, a[r], inner, swapped);
          }
      }
    }
  });
}

// The whole kernels. Op is a portable binary op (binary_op.h's interface):
// the fast loops call its own apply at float precision, so both paths compute
// the same expression. Its Dtypes decide which dtypes the portable fallback is
// compiled for; the fast path needs Float enabled.

// name.out(Tensor self, Tensor other, *, [Scalar alpha,] Tensor(a!) out).
// `alpha` is null for ops without one.
template <typename Dtypes, typename Op>
void binary_kernel(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                   const rt::Tensor& other, const rt::Scalar* alpha, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  BinaryPlan plan;
  if (Dtypes::kEnabled.contains(rt::ScalarType::Float) && (alpha == nullptr || !alpha->is_bool()) &&
      plan_fast_binary(in, self, other, out, &plan)) {
    if (plan.empty) return;
    const float s = alpha != nullptr ? alpha->to<float>() : 0.0f;
    run_fast_binary(plan, self.data_as<float>(), other.data_as<float>(), out.data_as<float>(),
                    [s](float x, float y) { return Op::template apply<float>(x, y, s); });
    return;
  }
  if (alpha != nullptr) {
    portable::binary_alpha_kernel<Dtypes, Op>(context, op, self, other, *alpha, out);
  } else {
    portable::binary_tensor_kernel<Dtypes, Op>(context, op, self, other, out);
  }
}

// name.Scalar_out(Tensor self, Scalar other, [Scalar alpha,] *, Tensor(a!) out).
// A bool `other` or `alpha` takes portable's path (its promotion and checks).
template <typename Dtypes, typename Op>
void binary_scalar_kernel(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                          const rt::Scalar& other, const rt::Scalar* alpha, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  bool empty = false;
  if (Dtypes::kEnabled.contains(rt::ScalarType::Float) && !other.is_bool() &&
      (alpha == nullptr || !alpha->is_bool()) && plan_fast_unary(in, self, out, &empty)) {
    if (empty) return;
    const float s = alpha != nullptr ? alpha->to<float>() : 0.0f;
    const float y = other.to<float>();
    float* o = out.data_as<float>();
    const float* x = self.data_as<float>();
    split_elements(out.numel(), [&](int64_t begin, int64_t end) {
      map2_scalar(o + begin, x + begin, y, end - begin,
                  [s](float v, float w) { return Op::template apply<float>(v, w, s); });
    });
    return;
  }
  if (alpha != nullptr) {
    portable::binary_scalar_alpha_kernel<Dtypes, Op>(context, op, self, other, *alpha, out);
  } else {
    portable::binary_scalar_kernel<Dtypes, Op>(context, op, self, other, out);
  }
}

}  // namespace optimized
