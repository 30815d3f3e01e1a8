#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::sym_min.Scalar(Scalar a, Scalar b) -> Scalar
rt::EValue sym_min_Scalar(rt::KernelContext& context, rt::Scalar a, rt::Scalar b) {
  return prim_binary(context, prim_number(a), prim_number(b), "executorch_prim::sym_min.Scalar",
                     PrimBinary::Min);
}

}  // namespace prim
