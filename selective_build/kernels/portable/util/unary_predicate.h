#pragma once

#include <cstdint>

#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// out = Pred::test(self) elementwise into a Bool out of self's shape (any
// strides), for isnan and isinf. Not done through unary_map: a floating
// point value cannot be cast to Bool there (torch.can_cast), and the test
// must see the value itself, not its truth. Pred::test takes opmath_t<T>
// (Float for Half and BFloat16, as ExecuTorch's kernels test in float).
template <typename Dtypes, typename Pred>
void unary_predicate(const rt::OpContext& in, const rt::Tensor& self, rt::Tensor& out) {
  rt::KernelContext& context = in.context();
  if (!Dtypes::check(context, in.op(), self.dtype())) return;
  if (out.dtype() != rt::ScalarType::Bool) return in.fail("out must be Bool");
  if (!resize_out(in, out, self.sizes().data(), self.dim()) || out.numel() == 0) return;
  Dtypes::run(context, in.op(), self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    StridedWalk<2> walk;
    walk.init(out.sizes().data(), out.dim());
    walk.set_operand(0, self);
    walk.set_operand(1, out);
    const int64_t n = walk.row_size(), si = walk.row_stride(0), so = walk.row_stride(1);
    do {
      const T* source = static_cast<const T*>(self.data()) + walk.offset(0);
      bool* target = static_cast<bool*>(out.data()) + walk.offset(1);
      for (int64_t i = 0; i < n; ++i)
        target[i * so] = Pred::test(rt::value_cast<opmath_t<T>>(source[i * si]));
    } while (walk.next_row());
  });
}

}  // namespace portable
