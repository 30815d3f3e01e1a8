#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::le.Scalar(Scalar a, Scalar b) -> Scalar
bool le_Scalar(rt::KernelContext& context, rt::Scalar a, rt::Scalar b) {
  return prim_binary(context, prim_number(a), prim_number(b), "executorch_prim::le.Scalar",
                     PrimBinary::Le)
      .to_bool();
}

}  // namespace prim
