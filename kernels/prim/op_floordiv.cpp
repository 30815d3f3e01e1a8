#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::floordiv.Scalar(Scalar a, Scalar b) -> Scalar
void floordiv_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::floordiv.Scalar", PrimBinary::FloorDiv, false);
}

// executorch_prim::floordiv.int(int a, int b) -> int
void floordiv_int(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::floordiv.int", PrimBinary::FloorDiv, true);
}

}  // namespace prim
