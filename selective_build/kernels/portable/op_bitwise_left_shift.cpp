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

constexpr const char* kOp = "aten::bitwise_left_shift.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::bitwise_left_shift.Tensor_Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

// self << other, as torch computes it: a shift by a negative amount or by
// the width of the compute dtype or more gives 0 (C++ leaves both undefined).
// The bits shift as unsigned, so a negative self wraps instead of being UB.
// Bool shifts as the integers 0 and 1 and is nonzero afterwards.
struct ShiftLeft {
  static constexpr bool kHasScalar = false;
  template <typename M>
  static M apply(M x, M y, M) {
    if constexpr (std::is_same<M, bool>::value) {
      return static_cast<bool>(apply<int>(x, y, 0));
    } else {
      using U = std::make_unsigned_t<M>;
      if (shift_out_of_range(y)) return M(0);
      return static_cast<M>(static_cast<U>(static_cast<U>(x) << static_cast<unsigned>(y)));
    }
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_left_shift_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                                          const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, ShiftLeft>(context, kOp, self, other, out);
  return out;
}

// bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& bitwise_left_shift_Tensor_Scalar_out(rt::KernelContext& context, const rt::Tensor& self,
                                                 rt::Scalar other, rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, ShiftLeft>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
