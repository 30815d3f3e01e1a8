#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::ceil.Scalar(Scalar a) -> Scalar
void ceil_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_unary(context, args, "executorch_prim::ceil.Scalar", PrimUnary::Ceil);
}

}  // namespace prim
