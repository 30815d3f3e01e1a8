#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::sym_max.Scalar(Scalar a, Scalar b) -> Scalar
void sym_max_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::sym_max.Scalar", PrimBinary::Max, false);
}

}  // namespace prim
