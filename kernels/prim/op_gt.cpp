#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::gt.Scalar(Scalar a, Scalar b) -> Scalar
void gt_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::gt.Scalar", PrimBinary::Gt, false);
}

}  // namespace prim
