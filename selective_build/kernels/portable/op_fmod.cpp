#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::fmod.Tensor_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

constexpr const char* kScalarOp = "aten::fmod.Scalar_out";
using ScalarDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kScalarOp).bits(),
                                       rt::selected_dtypes(kScalarOp).bits()>;

// C's fmod: the result takes the dividend's sign. Integer division by zero is an error, as in torch.
struct Fmod {
  static constexpr bool kHasScalar = false;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  template <typename M>
  static M apply(M x, M y, M) {
    return op_fmod(x, y);
  }
  static const char* validate(const BinaryCall& call) {
    return binary_divides_by_zero(call) ? "integer division by zero" : nullptr;
  }
  static const char* check(ScalarType common, const rt::Scalar&) {
    return common == ScalarType::Bool ? "fmod of bool tensors is not supported" : nullptr;
  }
};

}  // namespace

// fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& fmod_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                            const rt::Tensor& other, rt::Tensor& out) {
  binary_tensor_kernel<Dtypes, Fmod>(context, kOp, self, other, out);
  return out;
}

// fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& fmod_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                            rt::Tensor& out) {
  binary_scalar_kernel<ScalarDtypes, Fmod>(context, kScalarOp, self, other, out);
  return out;
}

}  // namespace portable
