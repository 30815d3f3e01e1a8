#pragma once

#include "kernels/portable/util/binary_op.h"

namespace portable {

// out = Op(self) elementwise, for out-variant unary ops (relu...): the
// binary machinery with self as both operands, so unary ops add only their
// row loops. Op is as for binary_op; apply(x, x, scalar) gets self twice.
template <typename Dtypes, typename Op>
void unary_op(const rt::ArgReader& in, const rt::Tensor* self, rt::Tensor* out) {
  BinaryCall call;
  call.a = self;
  call.b = self;
  call.out = out;
  binary_op<Dtypes, Op>(in, call);
}

}  // namespace portable
