#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/random.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::native_dropout.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// native_dropout.out(Tensor input, float p, bool? train, *, Tensor(a!) out0, Tensor(b!) out1)
//     -> (Tensor(a!), Tensor(b!))
// Training (train absent or true): each element is kept with probability 1 - p (out1,
// Bool, says which) and scaled by 1 / (1 - p), the others are 0; p = 1 drops all. This
// is PyTorch's rule; ExecuTorch's portable kernel keeps the elements unscaled. The draws
// come from the runner's generator (Note [Random kernels]). Otherwise out0 = input and
// out1 is all true.
void native_dropout_out(rt::KernelContext& context, const rt::Tensor& input, double p,
                        rt::Optional<bool> train, rt::Tensor& out0, rt::Tensor& out1) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, input.dtype())) return;
  if (out0.dtype() != input.dtype()) return in.fail("out0 must have input's dtype");
  if (out1.dtype() != rt::ScalarType::Bool) return in.fail("out1 must be Bool");
  if (!(p >= 0.0 && p <= 1.0)) return in.fail("p must be between 0 and 1");
  if (!resize_out(in, out0, input.sizes().data(), input.dim()) ||
      !resize_out(in, out1, input.sizes().data(), input.dim()) || input.numel() == 0) {
    return;
  }
  const bool training = !train.has_value() || train.value();
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const M scale = p < 1.0 ? static_cast<M>(1.0 / (1.0 - p)) : M(0);
    StridedWalk<3> walk;
    walk.init(input.sizes().data(), input.dim());
    walk.set_operand(0, input);
    walk.set_operand(1, out0);
    walk.set_operand(2, out1);
    const int64_t n = walk.row_size();
    do {
      const T* x = static_cast<const T*>(input.data()) + walk.offset(0);
      T* y = static_cast<T*>(out0.data()) + walk.offset(1);
      bool* keep = static_cast<bool*>(out1.data()) + walk.offset(2);
      for (int64_t i = 0; i < n; ++i) {
        const bool kept = !training || random_uniform<double>() >= p;
        keep[i * walk.row_stride(2)] = kept;
        const M value = kept ? (training ? rt::value_cast<M>(x[i * walk.row_stride(0)]) * scale
                                         : rt::value_cast<M>(x[i * walk.row_stride(0)]))
                             : M(0);
        y[i * walk.row_stride(1)] = rt::value_cast<T>(value);
      }
    } while (walk.next_row());
  });
}

}  // namespace portable
