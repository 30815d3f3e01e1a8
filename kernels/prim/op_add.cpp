#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::add.Scalar(Scalar a, Scalar b) -> Scalar
void add_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::add.Scalar", PrimBinary::Add, false);
}

}  // namespace prim
