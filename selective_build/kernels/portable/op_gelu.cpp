#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_functors.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::gelu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out) -> Tensor(a!)
rt::Tensor& gelu_out(rt::KernelContext& context, const rt::Tensor& self, rt::StringRef approximate,
                     rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  bool tanh = false;
  if (!check_gelu_args(in, approximate, &tanh)) return out;
  unary_map<Dtypes, Dtypes>(in, self, out, self.dtype(), Gelu{tanh});
  return out;
}

}  // namespace portable
