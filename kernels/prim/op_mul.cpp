#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::mul.Scalar(Scalar a, Scalar b) -> Scalar
void mul_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::mul.Scalar", PrimBinary::Mul, false);
}

}  // namespace prim
