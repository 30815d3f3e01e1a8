#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::sym_float.Scalar(Scalar a) -> Scalar
void sym_float_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_unary(context, args, "executorch_prim::sym_float.Scalar", PrimUnary::Float);
}

}  // namespace prim
