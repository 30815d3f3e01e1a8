#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::le.Scalar(Scalar a, Scalar b) -> Scalar
void le_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::le.Scalar", PrimBinary::Le, false);
}

}  // namespace prim
