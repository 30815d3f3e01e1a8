#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/promotion.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {

// One call of an elementwise binary op, planned: out = Op(a, b[, scalar]).
struct BinaryCall {
  const rt::Tensor* a;
  const rt::Tensor* b;
  rt::Tensor* out;
  rt::Scalar scalar;    // the op's Scalar argument (add's alpha), if any
  ScalarType common;    // the compute dtype
  StridedWalk<3> walk;  // operands: out, a, b
};

// torch's compute dtype for a and b, or nullptr when out cannot hold it.
inline const char* promote_binary(const rt::Tensor& a, const rt::Tensor& b, const rt::Tensor& out,
                                  ScalarType* common) {
  *common = result_type(a, b);
  return can_cast(*common, out.dtype()) ? nullptr : "the result dtype cannot be cast to out's dtype";
}

// The dtype-independent half of binary_op: dtype checks (masks as in
// DtypeDispatch), the compute dtype, broadcasting and out's shape. Not a
// template, so every binary op shares one copy. `promote` is
// promote_binary, or nullptr when only one dtype is enabled: every tensor
// that passes the check then has it, and promotion code need not be linked.
__attribute__((noinline)) inline bool plan_binary(const rt::ArgReader& in, uint32_t supported, uint32_t enabled,
                        const char* (*promote)(const rt::Tensor&, const rt::Tensor&, const rt::Tensor&, ScalarType*),
                        BinaryCall* call) {
  rt::KernelContext& context = in.context();
  const rt::Tensor& a = *call->a;
  const rt::Tensor& b = *call->b;
  rt::Tensor& out = *call->out;
  const rt::Tensor* const tensors[] = {&a, &b, &out};
  for (const rt::Tensor* tensor : tensors) {
    if (!context.check_dtype(in.op(), tensor->dtype(), supported, enabled)) return false;
  }
  call->common = a.dtype();
  if (const char* problem = promote != nullptr ? promote(a, b, out, &call->common) : nullptr) {
    in.fail(problem);
    return false;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!broadcast_shape(a, b, sizes, &dim)) {
    in.fail("self and other cannot be broadcast together");
    return false;
  }
  if (!resize_out(in, out, sizes, dim) || out.numel() == 0) return false;
  call->walk.init(sizes, dim);
  call->walk.set_operand(0, out);
  call->walk.set_operand(1, a);
  call->walk.set_operand(2, b);
  return true;
}

template <typename M, typename From>
M load_as(const uint8_t* source) {
  From value;
  memcpy(&value, source, sizeof value);
  return rt::value_cast<M>(value);
}

template <typename M, typename To>
void store_as(uint8_t* target, M value) {
  const To converted = rt::value_cast<To>(value);
  memcpy(target, &converted, sizeof converted);
}

// One innermost row of a planned call: `n` elements at `out`, `a`, `b`,
// strides in elements (0 where an operand is broadcast).
struct BinaryRow {
  void* out;
  const void* a;
  const void* b;
  int64_t n;
  int64_t so, sa, sb;
};
using BinaryRowFn = void (*)(const BinaryRow& row, const rt::Scalar& scalar);

// The row loop when a, b and out all have the compute dtype T: Op::apply(x,
// y, s) on opmath_t<T> values, s being the call's scalar.
template <typename Op, typename T>
void binary_row(const BinaryRow& row, const rt::Scalar& scalar) {
  using M = opmath_t<T>;
  const M s = Op::kHasScalar ? scalar.to<M>() : M();
  T* out = static_cast<T*>(row.out);
  const T* a = static_cast<const T*>(row.a);
  const T* b = static_cast<const T*>(row.b);
  for (int64_t i = 0; i < row.n; ++i) {
    out[i * row.so] = rt::value_cast<T>(Op::apply(static_cast<M>(a[i * row.sa]), static_cast<M>(b[i * row.sb]), s));
  }
}

// Runs `fn` over every row of a planned call whose tensors all have the
// compute dtype. Not a template: every binary op and dtype shares it.
__attribute__((noinline)) inline void run_binary_rows(BinaryCall& call, BinaryRowFn fn) {
  StridedWalk<3>& walk = call.walk;
  const size_t element = rt::element_size(call.common);
  BinaryRow row{nullptr, nullptr, nullptr, walk.row_size(), walk.row_stride(0), walk.row_stride(1), walk.row_stride(2)};
  do {
    row.out = static_cast<uint8_t*>(call.out->data()) + walk.offset(0) * element;
    row.a = static_cast<const uint8_t*>(call.a->data()) + walk.offset(1) * element;
    row.b = static_cast<const uint8_t*>(call.b->data()) + walk.offset(2) * element;
    fn(row, call.scalar);
  } while (walk.next_row());
}

// The whole loop when dtypes differ: loads and stores convert through
// function pointers chosen once per call; compute type T.
template <typename Dtypes, typename Op, typename T>
void binary_mixed(rt::KernelContext& context, const char* op, BinaryCall& call) {
  using M = opmath_t<T>;
  const M s = Op::kHasScalar ? call.scalar.to<M>() : M();
  const rt::Tensor& a = *call.a;
  const rt::Tensor& b = *call.b;
  rt::Tensor& out = *call.out;
  M (*load_a)(const uint8_t*) = nullptr;
  M (*load_b)(const uint8_t*) = nullptr;
  void (*store)(uint8_t*, M) = nullptr;
  Dtypes::run(context, op, a.dtype(), [&](auto t) { load_a = &load_as<M, typename decltype(t)::type>; });
  Dtypes::run(context, op, b.dtype(), [&](auto t) { load_b = &load_as<M, typename decltype(t)::type>; });
  Dtypes::run(context, op, out.dtype(), [&](auto t) { store = &store_as<M, typename decltype(t)::type>; });
  if (context.failed()) return;
  StridedWalk<3>& walk = call.walk;
  const int64_t n = walk.row_size();
  const int64_t so = walk.row_stride(0) * out.element_size();
  const int64_t sa = walk.row_stride(1) * a.element_size();
  const int64_t sb = walk.row_stride(2) * b.element_size();
  do {
    uint8_t* ro = static_cast<uint8_t*>(out.data()) + walk.offset(0) * out.element_size();
    const uint8_t* rx = static_cast<const uint8_t*>(a.data()) + walk.offset(1) * a.element_size();
    const uint8_t* ry = static_cast<const uint8_t*>(b.data()) + walk.offset(2) * b.element_size();
    for (int64_t i = 0; i < n; ++i) store(ro + i * so, Op::apply(load_a(rx + i * sa), load_b(ry + i * sb), s));
  } while (walk.next_row());
}

// out = Op(a, b) elementwise, for the out-variant binary ops (add, mul...):
// broadcasting, torch's type promotion (compute in the result type of a and
// b at opmath precision, then cast to out's dtype), out resized to the
// broadcast shape. Op provides `template <class M> static M apply(M, M, M
// scalar)`, `kHasScalar`, and `static const char* check(ScalarType common,
// const Scalar&)`, which says why the scalar does not suit the compute dtype,
// or returns nullptr. Every tensor's dtype must be enabled in Dtypes (Note
// [Dtype selection]); only the row loops are compiled per op and dtype.
template <typename Dtypes, typename Op>
void binary_op(const rt::ArgReader& in, BinaryCall& call) {
  constexpr bool kMixed = Dtypes::kEnabled.count() > 1;
  rt::KernelContext& context = in.context();
  if (!plan_binary(in, Dtypes::kSupported.bits(), Dtypes::kEnabled.bits(), kMixed ? &promote_binary : nullptr,
                   &call)) {
    return;
  }
  if (const char* problem = Op::check(call.common, call.scalar)) return in.fail(problem);
  BinaryRowFn row = nullptr;
  void (*mixed)(rt::KernelContext&, const char*, BinaryCall&) = nullptr;
  Dtypes::run(context, in.op(), call.common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    row = &binary_row<Op, T>;
    if constexpr (kMixed) mixed = &binary_mixed<Dtypes, Op, T>;
  });
  if (row == nullptr) return;
  // With one dtype enabled, every tensor has it (plan_binary checked).
  if (!kMixed || (call.a->dtype() == call.common && call.b->dtype() == call.common &&
                  call.out->dtype() == call.common)) {
    run_binary_rows(call, row);
  } else {
    mixed(context, in.op(), call);
  }
}

}  // namespace portable
