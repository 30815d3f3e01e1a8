#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::floor_divide.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// Python's a // b, the same as div(rounding_mode='floor'); integer division
// by zero is an error, as in torch and ExecuTorch.
struct FloorDivide {
  static constexpr bool kHasScalar = false;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  template <typename M>
  static M apply(M x, M y, M) {
    return op_div_floor(x, y);
  }
  static const char* validate(const BinaryCall& call) {
    return binary_divides_by_zero(call) ? "integer division by zero" : nullptr;
  }
  static const char* check(ScalarType common, const rt::Scalar&) {
    return common == ScalarType::Bool ? "floor division of bool tensors is not supported" : nullptr;
  }
};

}  // namespace

// floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& floor_divide_out(rt::KernelContext& context, const rt::Tensor& self,
                             const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, FloorDivide>(context, kOp, self, other, out);
  return out;
}

}  // namespace portable
