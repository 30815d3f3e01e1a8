#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::sub.Scalar(Scalar a, Scalar b) -> Scalar
void sub_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::sub.Scalar", PrimBinary::Sub, false);
}

}  // namespace prim
