#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::ge.Scalar(Scalar a, Scalar b) -> Scalar
void ge_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::ge.Scalar", PrimBinary::Ge, false);
}

}  // namespace prim
