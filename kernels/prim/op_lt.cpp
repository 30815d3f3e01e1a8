#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::lt.Scalar(Scalar a, Scalar b) -> Scalar
void lt_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::lt.Scalar", PrimBinary::Lt, false);
}

}  // namespace prim
