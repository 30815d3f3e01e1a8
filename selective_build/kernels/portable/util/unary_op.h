#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/promotion.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {

// Note [Unary ops]
// out = f(self) elementwise, self and out of the same shape (any strides).
// f runs in a compute dtype T (at opmath_t<T> precision, rounded to T),
// chosen by the op: self's dtype, or for the floating point ops (exp, ...)
// Float when self is an integer or bool tensor, as torch does. out may have
// any dtype the compute dtype can be cast to.
// Only the row loop unary_row<Op, T> is compiled per op and compute dtype.
// When self or out does not have the compute dtype, the shared loop in
// run_unary_mixed converts chunks of a row through a buffer with per-dtype
// converters that every unary op shares (linked only when the build
// enables more than one dtype for some unary op).
//
// An Op is an object with `template <class M> Fn bind() const` returning a
// callable M -> M with the op's parameters converted to M; ops without
// parameters derive from UnaryStateless and define `static M apply(M)`.

template <typename Op>
struct UnaryStateless {
  template <typename M>
  struct Fn {
    M operator()(M x) const { return Op::template apply<M>(x); }
  };
  template <typename M>
  Fn<M> bind() const {
    return Fn<M>();
  }
};

// One innermost row: `n` elements, strides in elements.
struct UnaryRow {
  const void* in;
  void* out;
  int64_t n;
  int64_t si, so;
};
using UnaryRowFn = void (*)(const UnaryRow& row, const void* op);

template <typename Op, typename T>
void unary_row(const UnaryRow& row, const void* op) {
  using M = opmath_t<T>;
  const auto fn = static_cast<const Op*>(op)->template bind<M>();
  const T* in = static_cast<const T*>(row.in);
  T* out = static_cast<T*>(row.out);
  for (int64_t i = 0; i < row.n; ++i)
    out[i * row.so] = rt::value_cast<T>(fn(rt::value_cast<M>(in[i * row.si])));
}

// An element on its way between dtypes: integers and bools in `i`, floating
// point values in `d` (both exact for every dtype).
struct UnaryWide {
  int64_t i;
  double d;
  bool floating;
};
using UnaryReadFn = void (*)(const uint8_t* source, UnaryWide* value);
using UnaryWriteFn = void (*)(uint8_t* target, const UnaryWide& value);

template <typename T>
void unary_read(const uint8_t* source, UnaryWide* value) {
  T x;
  memcpy(&x, source, sizeof x);
  value->floating = !std::is_integral<T>::value;
  if constexpr (std::is_integral<T>::value) {
    value->i = static_cast<int64_t>(x);
  } else {
    value->d = rt::value_cast<double>(x);
  }
}

template <typename T>
void unary_write(uint8_t* target, const UnaryWide& value) {
  // Casting a floating point value into an integer dtype never happens here
  // (can_cast forbids it), but must compile.
  const T x = value.floating ? rt::value_cast<T>(value.d) : rt::value_cast<T>(value.i);
  memcpy(target, &x, sizeof x);
}

// A planned call: see Note [Unary ops].
struct UnaryPlan {
  const rt::Tensor* self;
  rt::Tensor* out;
  ScalarType common;
  UnaryRowFn row;
  const void* op;
  // Converters, set when self or out does not have the compute dtype.
  UnaryReadFn read_self, read_common;
  UnaryWriteFn write_common, write_out;
};

// The dtype-independent checks of a unary call: dtypes (masks as in
// DtypeDispatch), out castable from the compute dtype, out resized to
// self's shape. False when the call failed or has nothing to compute.
__attribute__((noinline)) inline bool plan_unary(const rt::OpContext& in, uint32_t supported,
                                                 uint32_t enabled, const rt::Tensor& self,
                                                 rt::Tensor& out, ScalarType common) {
  rt::KernelContext& context = in.context();
  if (!context.check_dtype(in.op(), self.dtype(), supported, enabled) ||
      !context.check_dtype(in.op(), out.dtype(), supported, enabled)) {
    return false;
  }
  if (!can_cast(common, out.dtype())) {
    in.fail("the result dtype cannot be cast to out's dtype");
    return false;
  }
  return resize_out(in, out, self.sizes().data(), self.dim()) && out.numel() != 0;
}

// Walks a planned call row by row when self and out have the compute
// dtype. Not a template: every unary op shares it.
__attribute__((noinline)) inline void run_unary(const UnaryPlan& plan) {
  const rt::Tensor& self = *plan.self;
  rt::Tensor& out = *plan.out;
  StridedWalk<2> walk;
  walk.init(out.sizes().data(), out.dim());
  walk.set_operand(0, self);
  walk.set_operand(1, out);
  const size_t es = self.element_size();
  const size_t eo = out.element_size();
  UnaryRow row{nullptr, nullptr, walk.row_size(), walk.row_stride(0), walk.row_stride(1)};
  do {
    row.in = static_cast<const uint8_t*>(self.data()) + walk.offset(0) * es;
    row.out = static_cast<uint8_t*>(out.data()) + walk.offset(1) * eo;
    plan.row(row, plan.op);
  } while (walk.next_row());
}

// The same when self or out does not have the compute dtype: chunks of a
// row go through buffers in the compute dtype, converted by the plan's
// converters. Only linked by builds that enable several dtypes for an op.
__attribute__((noinline)) inline void run_unary_mixed(const UnaryPlan& plan) {
  const rt::Tensor& self = *plan.self;
  rt::Tensor& out = *plan.out;
  StridedWalk<2> walk;
  walk.init(out.sizes().data(), out.dim());
  walk.set_operand(0, self);
  walk.set_operand(1, out);
  const int64_t n = walk.row_size();
  const size_t es = self.element_size();
  const size_t eo = out.element_size();
  const bool direct_in = self.dtype() == plan.common;
  const bool direct_out = out.dtype() == plan.common;
  constexpr int64_t kChunk = 64;
  alignas(8) uint8_t in_buffer[kChunk * 8];
  alignas(8) uint8_t out_buffer[kChunk * 8];
  const size_t ec = rt::element_size(plan.common);
  const int64_t ss = walk.row_stride(0) * static_cast<int64_t>(es);
  const int64_t so = walk.row_stride(1) * static_cast<int64_t>(eo);
  UnaryWide value;
  do {
    const uint8_t* source = static_cast<const uint8_t*>(self.data()) + walk.offset(0) * es;
    uint8_t* target = static_cast<uint8_t*>(out.data()) + walk.offset(1) * eo;
    for (int64_t start = 0; start < n; start += kChunk) {
      const int64_t m = n - start < kChunk ? n - start : kChunk;
      UnaryRow row{source + start * ss, target + start * so, m, walk.row_stride(0),
                   walk.row_stride(1)};
      if (!direct_in) {
        for (int64_t i = 0; i < m; ++i) {
          plan.read_self(source + (start + i) * ss, &value);
          plan.write_common(in_buffer + i * ec, value);
        }
        row.in = in_buffer;
        row.si = 1;
      }
      if (!direct_out) {
        row.out = out_buffer;
        row.so = 1;
      }
      plan.row(row, plan.op);
      if (!direct_out) {
        for (int64_t i = 0; i < m; ++i) {
          plan.read_common(out_buffer + i * ec, &value);
          plan.write_out(target + (start + i) * so, value);
        }
      }
    }
  } while (walk.next_row());
}

// out = op(self) computed in `common` (Note [Unary ops]). Dtypes says which
// dtypes self and out may have, Compute which compute dtypes the op has
// (DtypeDispatch types of the op's selection).
template <typename Dtypes, typename Compute, typename Op>
void unary_map(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out, ScalarType common,
               const Op& op) {
  if (!plan_unary(in, Dtypes::kSupported.bits(), Dtypes::kEnabled.bits(), self, out, common))
    return;
  rt::KernelContext& context = in.context();
  UnaryPlan plan{&self, &out, common, nullptr, &op, nullptr, nullptr, nullptr, nullptr};
  if (!Compute::run(context, in.op(), common,
                    [&](auto tag) { plan.row = &unary_row<Op, typename decltype(tag)::type>; })) {
    return;
  }
  if (self.dtype() != common || out.dtype() != common) {
    if constexpr (Dtypes::kEnabled.count() > 1) {
      auto io = [&](ScalarType dtype, UnaryReadFn* read, UnaryWriteFn* write) {
        return Dtypes::run(context, in.op(), dtype, [&](auto tag) {
          using T = typename decltype(tag)::type;
          if (read != nullptr) *read = &unary_read<T>;
          if (write != nullptr) *write = &unary_write<T>;
        });
      };
      if (io(self.dtype(), &plan.read_self, nullptr) &&
          io(common, &plan.read_common, &plan.write_common) &&
          io(out.dtype(), nullptr, &plan.write_out)) {
        run_unary_mixed(plan);
      }
      return;
    } else {
      // Unreachable: with one dtype enabled, self, out and a compute dtype
      // that dispatched all have it.
      return in.fail("mixed dtypes are not enabled in this build");
    }
  }
  run_unary(plan);
}

// The compute dtype of the floating point ops: self's, or Float for
// integers and bool.
inline ScalarType unary_float_dtype(ScalarType self) {
  return rt::is_floating_type(self) ? self : ScalarType::Float;
}

// A whole parameterless kernel `name.out(Tensor self, *, Tensor(a!) out)`.
// `to_float`: compute as the floating point ops do (unary_float_dtype).
template <typename Dtypes, typename Compute, typename Op>
void unary_kernel(rt::KernelContext& context, const char* name, const rt::Tensor& self,
                  rt::Tensor& out, bool to_float) {
  const rt::OpContext in(context, name);
  const ScalarType common = to_float ? unary_float_dtype(self.dtype()) : self.dtype();
  unary_map<Dtypes, Compute, Op>(in, self, out, common, Op());
}

namespace detail {
// A binary-style Op (relu's interface) applied to self alone.
template <typename Op>
struct UnaryFromBinary : UnaryStateless<UnaryFromBinary<Op>> {
  template <typename M>
  static M apply(M x) {
    return Op::apply(x, x, M());
  }
};
}  // namespace detail

// out = Op(self) for an Op written for binary_op (relu...): apply(x, x,
// scalar) gets self twice; Op must not take a scalar. Computes in self's
// dtype.
template <typename Dtypes, typename Op>
void unary_op(const rt::OpContext& in, const rt::Tensor* self, rt::Tensor* out) {
  static_assert(!Op::kHasScalar, "unary_op has no scalar to pass");
  if (const char* problem = Op::check(self->dtype(), rt::Scalar())) return in.fail(problem);
  unary_map<Dtypes, Dtypes, detail::UnaryFromBinary<Op>>(in, *self, *out, self->dtype(),
                                                         detail::UnaryFromBinary<Op>());
}

}  // namespace portable
