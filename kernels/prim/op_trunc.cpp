#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::trunc.Scalar(Scalar a) -> Scalar
void trunc_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_unary(context, args, "executorch_prim::trunc.Scalar", PrimUnary::Trunc);
}

}  // namespace prim
