#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::floordiv.Scalar(Scalar a, Scalar b) -> Scalar
rt::EValue floordiv_Scalar(rt::KernelContext& context, rt::Scalar a, rt::Scalar b) {
  return prim_binary(context, prim_number(a), prim_number(b), "executorch_prim::floordiv.Scalar",
                     PrimBinary::FloorDiv);
}

// executorch_prim::floordiv.int(int a, int b) -> int
int64_t floordiv_int(rt::KernelContext& context, int64_t a, int64_t b) {
  return prim_binary(context, prim_int(a), prim_int(b), "executorch_prim::floordiv.int",
                     PrimBinary::FloorDiv)
      .to_int();
}

}  // namespace prim
