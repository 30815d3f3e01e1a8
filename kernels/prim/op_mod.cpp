#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::mod.Scalar(Scalar a, Scalar b) -> Scalar
void mod_Scalar(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::mod.Scalar", PrimBinary::Mod, false);
}

// executorch_prim::mod.int(int a, int b) -> int
void mod_int(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  prim_binary(context, args, "executorch_prim::mod.int", PrimBinary::Mod, true);
}

}  // namespace prim
