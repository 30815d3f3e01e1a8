#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::neg.Scalar(Scalar a) -> Scalar
void neg_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_unary(context, args, "executorch_prim::neg.Scalar", PrimUnary::Neg);
}

}  // namespace prim
