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

constexpr const char* kOp = "aten::copy_";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
// Writes src (broadcast, converted) into self. The exporter emits it to write a mutated
// input back; the call's return slot (`result`) is self's value again, or another tensor,
// which then gets a copy of self.
rt::Tensor& copy_(rt::KernelContext& context, rt::Tensor& self, const rt::Tensor& src,
                  bool non_blocking, rt::Tensor& result) {
  const rt::OpContext in(context, kOp);
  if (!copy_check_blocking(in, non_blocking) || !copy_broadcast_into<Dtypes>(in, self, src))
    return result;
  if (&result == &self || (result.data() == self.data() && result.numel() == self.numel()))
    return result;
  if (result.dtype() != self.dtype()) {
    in.fail("the returned tensor must have self's dtype");
    return result;
  }
  if (!resize_out(in, result, self.sizes().data(), self.dim())) return result;
  copy_same_shape(result, self);
  return result;
}

}  // namespace portable
