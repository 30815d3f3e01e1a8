#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::eq.Scalar(Scalar a, Scalar b) -> Scalar
void eq_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::eq.Scalar", PrimBinary::Eq, false);
}

}  // namespace prim
