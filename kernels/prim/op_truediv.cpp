#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::truediv.Scalar(Scalar a, Scalar b) -> Scalar
void truediv_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::truediv.Scalar", PrimBinary::TrueDiv, false);
}

}  // namespace prim
