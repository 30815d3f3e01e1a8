#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/index_put.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::index_put_";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)
// self[indices] = values (broadcast), or += with accumulate, in place. The call's return
// slot (`result`) is self's value again, or another tensor, which then gets a copy of self.
rt::Tensor& index_put_(rt::KernelContext& context, rt::Tensor& self, rt::OptionalTensorList indices,
                       const rt::Tensor& values, bool accumulate, rt::Tensor& result) {
  const rt::OpContext in(context, kOp);
  if (!index_put_into<Dtypes>(in, self, indices, values, accumulate)) return result;
  if (&result == &self || (result.data() == self.data() && result.numel() == self.numel()))
    return result;
  if (!shape_same_dtype<Dtypes>(in, self, result)) return result;
  if (!resize_out(in, result, self.sizes().data(), self.dim())) return result;
  copy_same_shape(result, self);
  return result;
}

}  // namespace portable
