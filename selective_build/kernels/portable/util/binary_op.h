#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

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

// How an op's compute dtype and result dtype follow from its operands (the
// configurations of torch's TensorIterator the binary ops use).
enum class BinaryKind : uint8_t {
  kArithmetic,    // compute in result_type(a, b); out must be able to hold it
  kTrueDivision,  // the same, but integers and bool compute in Float (div, atan2)
  kComparison,    // compute in result_type(a, b); the results are bool, out any dtype
  kLogical,       // operands read as bool; the results are bool, out any dtype
};

// One call of an elementwise binary op, planned: out = Op(a, b[, scalar]).
// (Members without initializers are set by the kernel or the planner: no
// dead stores in every kernel.)
struct BinaryCall {
  const rt::Tensor* a;
  const rt::Tensor* b;
  rt::Tensor* out;
  rt::Scalar scalar;  // the op's Scalar argument (add's alpha), if any
  // Scalar overloads (binary_scalar_op): b is a 0-dim stand-in for *other,
  // whose value binary_op writes into it in the compute dtype.
  bool b_is_scalar;  // set by binary_op before Op::validate
  const rt::Scalar* other;
  ScalarType common;    // the compute dtype
  StridedWalk<3> walk;  // operands: out, a, b
};

// torch's compute dtype for a and b, or nullptr when out cannot hold it.
inline const char* promote_binary(const rt::Tensor& a, const rt::Tensor& b, const rt::Tensor& out,
                                  ScalarType* common) {
  *common = result_type(a, b);
  return can_cast(*common, out.dtype()) ? nullptr
                                        : "the result dtype cannot be cast to out's dtype";
}

// BinaryKind::kTrueDivision.
inline const char* promote_true_division(const rt::Tensor& a, const rt::Tensor& b,
                                         const rt::Tensor& out, ScalarType* common) {
  *common = result_type(a, b);
  if (!rt::is_floating_type(*common)) *common = ScalarType::Float;
  return can_cast(*common, out.dtype()) ? nullptr
                                        : "the result dtype cannot be cast to out's dtype";
}

// BinaryKind::kComparison: bool results fit any out.
inline const char* promote_comparison(const rt::Tensor& a, const rt::Tensor& b, const rt::Tensor&,
                                      ScalarType* common) {
  *common = result_type(a, b);
  return nullptr;
}

// BinaryKind::kLogical.
inline const char* promote_logical(const rt::Tensor&, const rt::Tensor&, const rt::Tensor&,
                                   ScalarType* common) {
  *common = ScalarType::Bool;
  return nullptr;
}

using BinaryPromoteFn = const char* (*)(const rt::Tensor&, const rt::Tensor&, const rt::Tensor&,
                                        ScalarType*);

inline BinaryPromoteFn binary_promotion(BinaryKind kind) {
  switch (kind) {
    case BinaryKind::kTrueDivision:
      return &promote_true_division;
    case BinaryKind::kComparison:
      return &promote_comparison;
    case BinaryKind::kLogical:
      return &promote_logical;
    default:
      return &promote_binary;
  }
}

// The dtype-independent half of binary_op: dtype checks (masks as in
// DtypeDispatch), the compute dtype, broadcasting and out's shape. Not a
// template, so every binary op shares one copy. `promote` is one of the
// promote_* functions, or nullptr when only one dtype is enabled for an
// arithmetic op on two tensors: every tensor that passes the check then has
// it, and promotion code need not be linked. A scalar stand-in for b is not
// checked: its dtype is no tensor's.
__attribute__((noinline)) inline bool plan_binary(const rt::OpContext& in, uint32_t supported,
                                                  uint32_t enabled, BinaryPromoteFn promote,
                                                  BinaryCall* call, bool b_is_scalar = false) {
  rt::KernelContext& context = in.context();
  const rt::Tensor& a = *call->a;
  const rt::Tensor& b = *call->b;
  rt::Tensor& out = *call->out;
  const rt::Tensor* const tensors[] = {&a, &out, b_is_scalar ? &a : &b};
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

// Optional members of an Op (defaults for ops that do not declare them):
//   static constexpr BinaryKind kKind;          kArithmetic
//   static constexpr rt::DtypeSet kComputeDtypes;  the compute dtypes the op
//       has code for (others fail as unsupported); all real types and bool
//   static constexpr bool kOpmathScalar;        false; true: a Scalar
//       overload's `other` enters a 16-bit float op at float precision, as
//       torch's add, sub, mul and div take it (others round it to the dtype)
//   static constexpr bool kStoredType;          false; true: apply is
//       `template <class T, class M> static R apply(M, M, M)` and learns the
//       compute dtype T besides the opmath type M
//   static const char* validate(const BinaryCall&);  a problem with a
//       planned call (integer division by zero...), or nullptr
template <typename Op, typename = void>
struct binary_kind : std::integral_constant<BinaryKind, BinaryKind::kArithmetic> {};
template <typename Op>
struct binary_kind<Op, std::void_t<decltype(Op::kKind)>>
    : std::integral_constant<BinaryKind, Op::kKind> {};

template <typename Op, typename = void>
struct binary_compute_dtypes : std::integral_constant<uint32_t, rt::kRealAndBoolDtypes.bits()> {};
template <typename Op>
struct binary_compute_dtypes<Op, std::void_t<decltype(Op::kComputeDtypes)>>
    : std::integral_constant<uint32_t, Op::kComputeDtypes.bits()> {};

template <typename Op, typename = void>
struct binary_opmath_scalar : std::false_type {};
template <typename Op>
struct binary_opmath_scalar<Op, std::void_t<decltype(Op::kOpmathScalar)>>
    : std::integral_constant<bool, Op::kOpmathScalar> {};

template <typename Op, typename = void>
struct binary_stored_type : std::false_type {};
template <typename Op>
struct binary_stored_type<Op, std::void_t<decltype(Op::kStoredType)>>
    : std::integral_constant<bool, Op::kStoredType> {};

template <typename Op, typename = void>
struct binary_has_validate : std::false_type {};
template <typename Op>
struct binary_has_validate<Op,
                           std::void_t<decltype(Op::validate(std::declval<const BinaryCall&>()))>>
    : std::true_type {};

// Op applied to opmath values of compute dtype T.
template <typename Op, typename T, typename M>
auto binary_apply(M x, M y, M s) {
  if constexpr (binary_stored_type<Op>::value) {
    return Op::template apply<T>(x, y, s);
  } else {
    return Op::apply(x, y, s);
  }
}

// The element type of out when it has the result dtype: T, or bool for
// comparison and logical ops.
template <typename Op, typename T>
using binary_out_t = std::conditional_t<
    std::is_same<decltype(binary_apply<Op, T>(opmath_t<T>(), opmath_t<T>(), opmath_t<T>())),
                 bool>::value,
    bool, T>;

// One innermost row of a planned call: `n` elements at `out`, `a`, `b`,
// strides in elements (0 where an operand is broadcast).
struct BinaryRow {
  void* out;
  const void* a;
  const void* b;
  int64_t n;
  int64_t so, sa, sb;
  int64_t b_opmath;  // nonzero: b is a scalar held at opmath precision (no padding to clear)
};
using BinaryRowFn = void (*)(const BinaryRow& row, const rt::Scalar& scalar);

// The row loop when a and b have the compute dtype T and out the result
// dtype: Op::apply(x, y, s) on opmath_t<T> values, s being the call's scalar.
template <typename Op, typename T>
void binary_row(const BinaryRow& row, const rt::Scalar& scalar) {
  using M = opmath_t<T>;
  using Out = binary_out_t<Op, T>;
  const M s = Op::kHasScalar ? scalar.to<M>() : M();
  Out* out = static_cast<Out*>(row.out);
  const T* a = static_cast<const T*>(row.a);
  if constexpr (!std::is_same<M, T>::value) {
    if (row.b_opmath) {
      M y;
      memcpy(&y, row.b, sizeof y);
      for (int64_t i = 0; i < row.n; ++i) {
        out[i * row.so] =
            rt::value_cast<Out>(binary_apply<Op, T>(static_cast<M>(a[i * row.sa]), y, s));
      }
      return;
    }
  }
  const T* b = static_cast<const T*>(row.b);
  for (int64_t i = 0; i < row.n; ++i) {
    out[i * row.so] = rt::value_cast<Out>(
        binary_apply<Op, T>(static_cast<M>(a[i * row.sa]), static_cast<M>(b[i * row.sb]), s));
  }
}

// Runs `fn` over every row of a planned call whose tensors all have the
// compute dtype. Not a template: every binary op and dtype shares it.
__attribute__((noinline)) inline void run_binary_rows(BinaryCall& call, BinaryRowFn fn) {
  StridedWalk<3>& walk = call.walk;
  const size_t element = rt::element_size(call.common);
  BinaryRow row{nullptr,
                nullptr,
                nullptr,
                walk.row_size(),
                walk.row_stride(0),
                walk.row_stride(1),
                walk.row_stride(2),
                0};
  do {
    row.out = static_cast<uint8_t*>(call.out->data()) + walk.offset(0) * element;
    row.a = static_cast<const uint8_t*>(call.a->data()) + walk.offset(1) * element;
    row.b = static_cast<const uint8_t*>(call.b->data()) + walk.offset(2) * element;
    fn(row, call.scalar);
  } while (walk.next_row());
}

// The same when out has the result dtype (bool for comparisons) and b may be
// a scalar stand-in held at opmath precision.
__attribute__((noinline)) inline void run_binary_rows(BinaryCall& call, BinaryRowFn fn,
                                                      bool b_opmath) {
  StridedWalk<3>& walk = call.walk;
  const size_t eo = call.out->element_size();
  const size_t element =
      rt::element_size(call.common);  // a, and b unless a stand-in (never advanced)
  BinaryRow row{nullptr,
                nullptr,
                nullptr,
                walk.row_size(),
                walk.row_stride(0),
                walk.row_stride(1),
                walk.row_stride(2),
                b_opmath};
  do {
    row.out = static_cast<uint8_t*>(call.out->data()) + walk.offset(0) * eo;
    row.a = static_cast<const uint8_t*>(call.a->data()) + walk.offset(1) * element;
    row.b = static_cast<const uint8_t*>(call.b->data()) + walk.offset(2) * element;
    fn(row, call.scalar);
  } while (walk.next_row());
}

// The whole loop when dtypes differ: loads and stores convert through
// function pointers chosen once per call; compute type T.
template <typename Dtypes, typename Op, typename T, bool kScalarOther = false>
void binary_mixed(rt::KernelContext& context, const char* op, BinaryCall& call) {
  using M = opmath_t<T>;
  using R = decltype(binary_apply<Op, T>(M(), M(), M()));
  const M s = Op::kHasScalar ? call.scalar.to<M>() : M();
  const rt::Tensor& a = *call.a;
  const rt::Tensor& b = *call.b;
  rt::Tensor& out = *call.out;
  M (*load_a)(const uint8_t*) = nullptr;
  M (*load_b)(const uint8_t*) = nullptr;
  void (*store)(uint8_t*, R) = nullptr;
  Dtypes::run(context, op, a.dtype(),
              [&](auto t) { load_a = &load_as<M, typename decltype(t)::type>; });
  if constexpr (kScalarOther) {
    load_b = binary_opmath_scalar<Op>::value ? &load_as<M, M> : &load_as<M, T>;
  } else {
    Dtypes::run(context, op, b.dtype(),
                [&](auto t) { load_b = &load_as<M, typename decltype(t)::type>; });
  }
  Dtypes::run(context, op, out.dtype(),
              [&](auto t) { store = &store_as<R, typename decltype(t)::type>; });
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
    for (int64_t i = 0; i < n; ++i)
      store(ro + i * so, binary_apply<Op, T>(load_a(rx + i * sa), load_b(ry + i * sb), s));
  } while (walk.next_row());
}

using BinaryMixedFn = void (*)(rt::KernelContext&, const char*, BinaryCall&);

// The dtype-independent tail of binary_op: the direct row loop when every
// operand has its dtype (out the result dtype), else the converting loop.
// Not a template: shared by every binary op.
__attribute__((noinline)) inline void run_binary(const rt::OpContext& in, BinaryCall& call,
                                                 BinaryRowFn row, BinaryMixedFn mixed,
                                                 ScalarType result, bool b_opmath,
                                                 bool scalar_other) {
  if (row == nullptr) return;
  if (call.a->dtype() == call.common && call.out->dtype() == result &&
      (scalar_other || call.b->dtype() == call.common)) {
    run_binary_rows(call, row, b_opmath);
  } else if (mixed != nullptr) {
    mixed(in.context(), in.op(), call);
  } else {
    in.fail(
        "mixed dtypes are not enabled in this build");  // unreachable: one dtype means all match
  }
}

// out = Op(a, b) elementwise, for the out-variant binary ops (add, mul...):
// broadcasting, torch's type promotion (compute in the result type of a and
// b at opmath precision, then cast to out's dtype; see BinaryKind), out
// resized to the broadcast shape. Op provides `template <class M> static R
// apply(M, M, M scalar)` (R is M, or bool for comparisons), `kHasScalar`,
// `static const char* check(ScalarType common, const Scalar&)`, which says
// why the scalar does not suit the compute dtype, or returns nullptr, and
// the optional members listed above. Every tensor's dtype must be enabled in
// Dtypes (Note [Dtype selection]); only the row loops are compiled per op
// and dtype.
// kScalarOther: the call comes from binary_scalar_op (b is a stand-in).
template <typename Dtypes, typename Op, bool kScalarOther = false>
void binary_op(const rt::OpContext& in, BinaryCall& call) {
  constexpr bool kMixed = Dtypes::kEnabled.count() > 1;
  constexpr BinaryKind kKind = binary_kind<Op>::value;
  using Compute = rt::DtypeDispatch<Dtypes::kSupported.bits() & binary_compute_dtypes<Op>::value,
                                    Dtypes::kEnabled.bits()>;
  rt::KernelContext& context = in.context();
  if constexpr (Dtypes::kEnabled.count() == 0) {
    // The build selected no dtype for this op: every call fails.
    Dtypes::check(context, in.op(), call.a->dtype());
    return;
  }
  BinaryPromoteFn promote = nullptr;
  if constexpr (kMixed || kKind != BinaryKind::kArithmetic || kScalarOther)
    promote = binary_promotion(kKind);
  if (!plan_binary(in, Dtypes::kSupported.bits(), Dtypes::kEnabled.bits(), promote, &call,
                   kScalarOther))
    return;
  if constexpr (binary_has_validate<Op>::value) {
    call.b_is_scalar = kScalarOther;
    if (const char* problem = Op::validate(call)) return in.fail(problem);
  }
  if (const char* problem = Op::check(call.common, call.scalar)) return in.fail(problem);
  BinaryRowFn row = nullptr;
  BinaryMixedFn mixed = nullptr;
  ScalarType result = call.common;
  bool b_opmath = false;
  Compute::run(context, in.op(), call.common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    row = &binary_row<Op, T>;
    if constexpr (kMixed || !std::is_same<binary_out_t<Op, T>, T>::value)
      mixed = &binary_mixed<Dtypes, Op, T, kScalarOther>;
    if constexpr (std::is_same<binary_out_t<Op, T>, bool>::value) result = ScalarType::Bool;
    if constexpr (kScalarOther) {
      b_opmath = binary_opmath_scalar<Op>::value && !std::is_same<M, T>::value;
      if (b_opmath) {
        store_as<M, M>(static_cast<uint8_t*>(call.b->data()), call.other->to<M>());
      } else {
        store_as<T, T>(static_cast<uint8_t*>(call.b->data()), call.other->to<T>());
      }
    }
  });
  // With one dtype enabled, an arithmetic op that dispatched has every
  // operand (and out) in it: no decision to make.
  if constexpr (!kMixed &&
                (kKind == BinaryKind::kArithmetic || kKind == BinaryKind::kTrueDivision)) {
    if constexpr (kScalarOther) {
      if (row != nullptr) run_binary_rows(call, row, b_opmath);
    } else {
      if (row != nullptr) run_binary_rows(call, row);
    }
  } else {
    run_binary(in, call, row, mixed, result, b_opmath, kScalarOther);
  }
}

// True when an integer division by b would divide by zero: the compute
// dtype is integral or bool and some element of b (or the scalar, converted
// to the compute dtype) is 0. For the `validate` of division-like ops.
__attribute__((noinline)) inline bool binary_divides_by_zero(const BinaryCall& call) {
  if (rt::is_floating_type(call.common)) return false;
  if (call.b_is_scalar) {
    const uint64_t bits = static_cast<uint64_t>(call.other->to<int64_t>());
    const size_t size = rt::element_size(call.common);
    return (size >= 8 ? bits : bits & ((uint64_t(1) << (size * 8)) - 1)) == 0;
  }
  // Every element of b takes part in a non-empty call; integer and bool
  // zeros are all-zero bytes.
  const rt::Tensor& b = *call.b;
  const uint8_t* bytes = static_cast<const uint8_t*>(b.data());
  const size_t size = b.element_size();
  for (int64_t i = 0; i < b.numel(); ++i) {
    uint8_t any = 0;
    for (size_t k = 0; k < size; ++k) any |= bytes[static_cast<size_t>(i) * size + k];
    if (any == 0) return true;
  }
  return false;
}

// A 0-dim stand-in tensor for a Scalar operand, with room for its value in
// any dtype.
struct ScalarOperand {
  rt::Tensor tensor;
  alignas(8) uint8_t value[8];
};

// Makes call->b a stand-in for `other` whose dtype is torch's result type of
// a and the scalar (so promotion sees a wrapped number).
__attribute__((noinline)) inline void bind_scalar_operand(BinaryCall* call, const rt::Scalar& other,
                                                          ScalarOperand* operand) {
  const int32_t no_sizes[1] = {0};
  operand->tensor = rt::Tensor();
  (void)operand->tensor.init(scalar_result_type(call->a->dtype(), other), no_sizes, nullptr, 0,
                             rt::ShapeDynamism::Static);
  operand->tensor.set_data(operand->value);
  call->b = &operand->tensor;
  call->other = &other;
}

// out = Op(a, other) for the Scalar overloads (add.Scalar_out...): binary_op
// with b a 0-dim tensor holding `other` in the compute dtype.
template <typename Dtypes, typename Op>
void binary_scalar_op(const rt::OpContext& in, BinaryCall& call, const rt::Scalar& other) {
  ScalarOperand operand;
  bind_scalar_operand(&call, other, &operand);
  binary_op<Dtypes, Op, true>(in, call);
}

// The whole-kernel templates below are always_inline: each op instantiates
// them once, and an outlined copy (GCC -Os makes a .constprop clone) only adds
// a call frame to the kernel.

// A whole kernel `name.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)`.
template <typename Dtypes, typename Op>
__attribute__((always_inline)) inline void binary_tensor_kernel(rt::KernelContext& context,
                                                                const char* op,
                                                                const rt::Tensor& self,
                                                                const rt::Tensor& other,
                                                                rt::Tensor& out) {
  const rt::OpContext in(context, op);
  BinaryCall call;
  call.a = &self;
  call.b = &other;
  call.out = &out;
  binary_op<Dtypes, Op>(in, call);
}

// A whole kernel `name.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)`.
template <typename Dtypes, typename Op>
__attribute__((always_inline)) inline void binary_scalar_kernel(rt::KernelContext& context,
                                                                const char* op,
                                                                const rt::Tensor& self,
                                                                const rt::Scalar& other,
                                                                rt::Tensor& out) {
  const rt::OpContext in(context, op);
  BinaryCall call;
  call.a = &self;
  call.out = &out;
  binary_scalar_op<Dtypes, Op>(in, call, other);
}

// A whole kernel `name.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)`
// (add, sub): the alpha goes to Op as call.scalar.
template <typename Dtypes, typename Op>
__attribute__((always_inline)) inline void binary_alpha_kernel(
    rt::KernelContext& context, const char* op, const rt::Tensor& self, const rt::Tensor& other,
    const rt::Scalar& alpha, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  BinaryCall call;
  call.a = &self;
  call.b = &other;
  call.scalar = alpha;
  call.out = &out;
  binary_op<Dtypes, Op>(in, call);
}

// A whole kernel `name.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out)`
// (add, sub).
template <typename Dtypes, typename Op>
__attribute__((always_inline)) inline void binary_scalar_alpha_kernel(
    rt::KernelContext& context, const char* op, const rt::Tensor& self, const rt::Scalar& other,
    const rt::Scalar& alpha, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  BinaryCall call;
  call.a = &self;
  call.scalar = alpha;
  call.out = &out;
  binary_scalar_op<Dtypes, Op>(in, call, other);
}

}  // namespace portable
