#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_pad.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::replication_pad1d.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// replication_pad1d.out(Tensor self, SymInt[2] padding, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& replication_pad1d_out(rt::KernelContext& context, const rt::Tensor& self,
                                  rt::IntList padding, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (Dtypes::check(context, kOp, self.dtype()))
    pad_nd(in, self, padding, 1, PadMode::Replication, out);
  return out;
}

}  // namespace portable
