#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::mod.Scalar(Scalar a, Scalar b) -> Scalar
int64_t mod_Scalar(rt::KernelContext& context, int64_t a, int64_t b) {
  return prim_binary(context, prim_int(a), prim_int(b), "executorch_prim::mod.Scalar",
                     PrimBinary::Mod)
      .to_int();
}

// executorch_prim::mod.int(int a, int b) -> int
int64_t mod_int(rt::KernelContext& context, int64_t a, int64_t b) {
  return prim_binary(context, prim_int(a), prim_int(b), "executorch_prim::mod.int", PrimBinary::Mod)
      .to_int();
}

}  // namespace prim
