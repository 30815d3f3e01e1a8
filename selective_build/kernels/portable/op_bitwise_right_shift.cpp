#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/shift.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::bitwise_right_shift.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::bitwise_right_shift.Tensor_Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

// self >> other, as torch computes it: an arithmetic shift (a negative self
// stays negative); a shift by a negative amount or by the width of the compute
// dtype or more gives -1 for a negative self and 0 otherwise (C++ leaves both
// undefined).
// Bool shifts as the integers 0 and 1 and is nonzero afterwards.
struct ShiftRight {
  static constexpr bool kHasScalar = false;
  template <typename M>
  static M apply(M x, M y, M) {
    if constexpr (std::is_same<M, bool>::value) {
      return static_cast<bool>(apply<int>(x, y, 0));
    } else {
      if (shift_out_of_range(y)) return is_negative(x) ? M(-1) : M(0);
      return static_cast<M>(x >> static_cast<unsigned>(y));
    }
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_right_shift_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                                           const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, ShiftRight>(context, kOp, self, other, out);
  return out;
}

// bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_right_shift_Tensor_Scalar_out(rt::KernelContext& context,
                                                  const rt::Tensor& self, rt::Scalar other,
                                                  rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, ShiftRight>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
