#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::round.Scalar(Scalar a) -> Scalar
rt::EValue round_Scalar(rt::KernelContext& context, rt::Scalar a) {
  return prim_unary(context, prim_number(a), "executorch_prim::round.Scalar", PrimUnary::Round);
}

}  // namespace prim
