#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/matmul.h"
#include "kernels/optimized/quantized_calls.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/kernel.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::mm.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& mm_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& mat2,
                   rt::Tensor& out) {
  opt::matmul_kernel<Dtypes>(context, kOp, self, mat2, out, 2);
  return out;
}

}  // namespace optimized

// Note [Fused epilogue]: mm and its activation (Float): the inputs of mm.out, the epilogue,
// out, out. The activation is the packed GEMM's epilogue (Note [GEMM epilogue]).
void rt::fused::mm(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  opt::matmul_kernel<optimized::Dtypes>(
      context, optimized::kOp, args[0]->to_tensor(), args[1]->to_tensor(),
      args[2 + rt::kEpilogueValues]->to_tensor(), 2, rt::read_epilogue(args, 2));
}

bool rt::fused::mm_accepts(rt::Span<rt::EValue* const> args) {
  return optimized::Dtypes::kEnabled.contains(rt::ScalarType::Float) &&
         args[0]->to_tensor().dtype() == rt::ScalarType::Float &&
         args[1]->to_tensor().dtype() == rt::ScalarType::Float;
}
