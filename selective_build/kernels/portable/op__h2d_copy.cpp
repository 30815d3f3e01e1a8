#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "et_copy::_h2d_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// _h2d_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// Host to device. This runtime has one device, the CPU, where every tensor of a program
// lives: the transfer is a copy of self into out (ExecuTorch's kernel moves the same bytes
// through the device's allocator).
rt::Tensor& _h2d_copy_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_same_shape(out, self);
  return out;
}

}  // namespace portable
