#include "kernels/prim/util/prim_scalar.h"
#include "runtime/kernel/kernel.h"

namespace prim {

// executorch_prim::sym_int.Scalar(Scalar a) -> Scalar
rt::EValue sym_int_Scalar(rt::KernelContext& context, rt::Scalar a) {
  return prim_unary(context, prim_number(a), "executorch_prim::sym_int.Scalar", PrimUnary::Int);
}

}  // namespace prim
