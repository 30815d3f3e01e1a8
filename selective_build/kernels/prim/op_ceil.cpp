#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::ceil.Scalar(Scalar a) -> Scalar
rt::EValue ceil_Scalar(rt::KernelContext& context, rt::Scalar a) {
  return prim_unary(context, prim_number(a), "executorch_prim::ceil.Scalar", PrimUnary::Ceil);
}

}  // namespace prim
