#pragma once

// where.self_out's body, shared by portable's kernel and the optimized one (which takes
// simple Float layouts itself and hands every other call here).

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/promotion.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// Operands of the walk: out, condition, self, other.
struct WhereCall {
  const rt::Tensor* condition;
  const rt::Tensor* self;
  const rt::Tensor* other;
  rt::Tensor* out;
  StridedWalk<4> walk;
};

// All of self, other and out have one dtype: picks bytes. Not a template.
__attribute__((noinline)) inline void where_copy(WhereCall& call) {
  StridedWalk<4>& walk = call.walk;
  const size_t size = call.out->element_size();
  const int64_t n = walk.row_size();
  const int64_t so = walk.row_stride(0) * static_cast<int64_t>(size);
  const int64_t sc = walk.row_stride(1);
  const int64_t sa = walk.row_stride(2) * static_cast<int64_t>(size);
  const int64_t sb = walk.row_stride(3) * static_cast<int64_t>(size);
  do {
    uint8_t* o = static_cast<uint8_t*>(call.out->data()) + walk.offset(0) * size;
    const uint8_t* c = static_cast<const uint8_t*>(call.condition->data()) + walk.offset(1);
    const uint8_t* a = static_cast<const uint8_t*>(call.self->data()) + walk.offset(2) * size;
    const uint8_t* b = static_cast<const uint8_t*>(call.other->data()) + walk.offset(3) * size;
    for (int64_t i = 0; i < n; ++i)
      memcpy(o + i * so, c[i * sc] != 0 ? a + i * sa : b + i * sb, size);
  } while (walk.next_row());
}

// self and other converted to out's dtype T (their result type), through
// the loads and stores the binary ops share.
template <typename Dtypes, typename T>
void where_convert(rt::KernelContext& context, const char* op, WhereCall& call) {
  using M = opmath_t<T>;
  M (*load_a)(const uint8_t*) = nullptr;
  M (*load_b)(const uint8_t*) = nullptr;
  Dtypes::run(context, op, call.self->dtype(),
              [&](auto t) { load_a = &load_as<M, typename decltype(t)::type>; });
  Dtypes::run(context, op, call.other->dtype(),
              [&](auto t) { load_b = &load_as<M, typename decltype(t)::type>; });
  if (context.failed()) return;
  StridedWalk<4>& walk = call.walk;
  const int64_t ea = static_cast<int64_t>(call.self->element_size());
  const int64_t eb = static_cast<int64_t>(call.other->element_size());
  const int64_t n = walk.row_size();
  do {
    T* o = static_cast<T*>(call.out->data()) + walk.offset(0);
    const uint8_t* c = static_cast<const uint8_t*>(call.condition->data()) + walk.offset(1);
    const uint8_t* a = static_cast<const uint8_t*>(call.self->data()) + walk.offset(2) * ea;
    const uint8_t* b = static_cast<const uint8_t*>(call.other->data()) + walk.offset(3) * eb;
    for (int64_t i = 0; i < n; ++i) {
      const M value = c[i * walk.row_stride(1)] != 0 ? load_a(a + i * walk.row_stride(2) * ea)
                                                     : load_b(b + i * walk.row_stride(3) * eb);
      o[i * walk.row_stride(0)] = rt::value_cast<T>(value);
    }
  } while (walk.next_row());
}

// out's shape: self and other broadcast together, then with condition; false when they
// cannot be (Note [Shared kernel checks], shape_copy.h). always_inline: each caller
// (portable's plan_where, the optimized kernel's fast plan) keeps its own copy inline, as
// before it was shared, rather than a call to one out of line.
__attribute__((always_inline)) inline bool where_out_sizes(const rt::Tensor& condition,
                                                           const rt::Tensor& self,
                                                           const rt::Tensor& other, int32_t* sizes,
                                                           int* dim) {
  int32_t values[rt::Tensor::kMaxDims];
  int values_dim = 0;
  return broadcast_shape(self, other, values, &values_dim) &&
         broadcast_sizes(values, values_dim, condition.sizes().data(), condition.dim(), sizes, dim);
}

// The dtype-independent checks and the shape; false when there is nothing
// (more) to do.
template <typename Dtypes, uint32_t kConditionBits>
bool plan_where(const rt::OpContext& in, const char* op, WhereCall& call) {
  rt::KernelContext& context = in.context();
  if (!context.check_dtype(op, call.condition->dtype(), kConditionBits,
                           kConditionBits & Dtypes::kEnabled.bits())) {
    return false;
  }
  const rt::Tensor* const tensors[] = {call.self, call.other, call.out};
  for (const rt::Tensor* tensor : tensors) {
    if (!Dtypes::check(context, op, tensor->dtype())) return false;
  }
  if (result_type(*call.self, *call.other) != call.out->dtype()) {
    in.fail("out must have the result dtype of self and other");
    return false;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!where_out_sizes(*call.condition, *call.self, *call.other, sizes, &dim)) {
    in.fail("condition, self and other cannot be broadcast together");
    return false;
  }
  if (!resize_out(in, *call.out, sizes, dim) || call.out->numel() == 0) return false;
  call.walk.init(sizes, dim);
  call.walk.set_operand(0, *call.out);
  call.walk.set_operand(1, *call.condition);
  call.walk.set_operand(2, *call.self);
  call.walk.set_operand(3, *call.other);
  return true;
}

// The whole kernel, `op` named in its messages; Dtypes the DtypeDispatch of self, other
// and out, kConditionBits the condition's dtypes (its entry's argument_dtypes: Note
// [Declared dtypes]).
template <typename Dtypes, uint32_t kConditionBits>
void where_kernel(rt::KernelContext& context, const char* op, const rt::Tensor& condition,
                  const rt::Tensor& self, const rt::Tensor& other, rt::Tensor& out) {
  const rt::OpContext in(context, op);
  WhereCall call;
  call.condition = &condition;
  call.self = &self;
  call.other = &other;
  call.out = &out;
  if (!plan_where<Dtypes, kConditionBits>(in, op, call)) return;
  if (call.self->dtype() == call.out->dtype() && call.other->dtype() == call.out->dtype()) {
    where_copy(call);
    return;
  }
  if constexpr (Dtypes::kEnabled.count() > 1) {
    Dtypes::run(context, op, call.out->dtype(), [&](auto tag) {
      where_convert<Dtypes, typename decltype(tag)::type>(context, op, call);
    });
  }
}

}  // namespace portable
