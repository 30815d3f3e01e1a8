#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::neg.Scalar(Scalar a) -> Scalar
rt::EValue neg_Scalar(rt::KernelContext& context, rt::Scalar a) {
  return prim_unary(context, prim_number(a), "executorch_prim::neg.Scalar", PrimUnary::Neg);
}

}  // namespace prim
