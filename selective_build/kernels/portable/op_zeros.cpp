#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/creation.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::zeros.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
// Zero bytes are 0, 0.0 and false in every dtype: no per-dtype code.
rt::Tensor& zeros_out(rt::KernelContext& context, rt::IntList size, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, out.dtype()) || !resize_to_size_arg(in, size, out)) return out;
  if (out.numel() != 0) memset(out.data(), 0, out.nbytes());
  return out;
}

}  // namespace portable
