#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::round.Scalar(Scalar a) -> Scalar
void round_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_unary(context, args, "executorch_prim::round.Scalar", PrimUnary::Round);
}

}  // namespace prim
