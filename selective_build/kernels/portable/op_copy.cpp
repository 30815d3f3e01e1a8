#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_broadcast.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out) -> Tensor(a!)
// out gets self's shape and dtype and src's values (src broadcast to self's shape,
// converted to self's dtype).
rt::Tensor& copy_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& src,
                     bool non_blocking, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!copy_check_blocking(in, non_blocking) || !shape_same_dtype<Dtypes>(in, self, out))
    return out;
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_broadcast_into<Dtypes>(in, out, src);
  return out;
}

}  // namespace portable
